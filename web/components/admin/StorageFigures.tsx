// The admin page's storage line: the disk Berth's files really take (compressed copies included,
// which no quota counts) next to the sum of what users' quotas count. Hidden until loaded, and
// when it cannot be loaded: the user list matters more.
import { HardDrive, PieChart } from "lucide-react";
import type { ReactNode } from "react";
import { formatBytes } from "../../../common/format";
import { ADMIN_TEXT } from "../../../common/texts";
import { useAdminStorage } from "../../lib/adminQueries";
import { Card } from "../ui/Card";

function Figure({ icon, label, value, hint }: { icon: ReactNode; label: string; value: string; hint: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5 px-4 py-3">
      <dt className="flex items-center gap-2 text-sm text-muted-foreground">
        <span aria-hidden>{icon}</span>
        {label}
      </dt>
      <dd className="text-lg font-semibold tabular-nums">{value}</dd>
      <dd className="text-xs text-muted-foreground">{hint}</dd>
    </div>
  );
}

export function StorageFigures() {
  const storage = useAdminStorage();
  if (!storage.data) return null;
  const { diskBytes, variantBytes, quotaBytes } = storage.data;
  const text = ADMIN_TEXT.storage;
  return (
    <Card>
      <dl className="grid divide-y sm:grid-cols-2 sm:divide-x sm:divide-y-0" aria-label={text.label}>
        <Figure
          icon={<HardDrive className="size-4" />}
          label={text.disk}
          value={formatBytes(diskBytes)}
          hint={text.variants(formatBytes(variantBytes))}
        />
        <Figure icon={<PieChart className="size-4" />} label={text.quotas} value={formatBytes(quotaBytes)} hint={text.quotasHint} />
      </dl>
    </Card>
  );
}
