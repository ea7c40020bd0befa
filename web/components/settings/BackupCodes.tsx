// The one-time backup codes, shown once: a grid to read, Copy, and Download as a text file.
import { useState } from "react";
import { toast } from "sonner";
import { Check, Copy, Download, TriangleAlert } from "lucide-react";
import { SETTINGS_TEXT } from "../../../common/texts";
import { useSession } from "../../lib/session";
import { Alert, AlertDescription } from "../ui/Alert";
import { Button } from "../ui/Button";
import { backupCodesFile } from "./twoFactor";

const T = SETTINGS_TEXT.twoFactor;

export function BackupCodes({ codes }: { codes: readonly string[] }) {
  const { user } = useSession();
  const [copied, setCopied] = useState(false);
  const text = backupCodesFile(codes, user?.email ?? "", window.location.origin);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      setCopied(true);
      toast.success(T.copied);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      toast.error(T.failed);
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "berth-backup-codes.txt";
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  return (
    <div className="flex flex-col gap-4">
      <Alert className="border-warning/40 bg-warning/10 [&>svg]:text-[oklch(0.6_0.15_65)]">
        <TriangleAlert aria-hidden />
        <AlertDescription className="text-foreground">{T.backupBody}</AlertDescription>
      </Alert>
      <ul
        aria-label="Backup codes"
        data-testid="backup-codes"
        className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-lg border bg-muted/50 px-5 py-4 font-mono text-sm tracking-wide"
      >
        {codes.map((code) => (
          <li key={code} className="text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="grid grid-cols-2 gap-2">
        <Button type="button" variant="outline" onClick={() => void copy()}>
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {T.copy}
        </Button>
        <Button type="button" variant="outline" onClick={download}>
          <Download aria-hidden />
          {T.download}
        </Button>
      </div>
    </div>
  );
}
