// "51–100 of 123" with Previous and Next.
import { ChevronLeft, ChevronRight } from "lucide-react";
import { ADMIN_TEXT } from "../../../common/texts";
import { Button } from "../ui/Button";
import { pageCount, pageRange } from "./adminUsers";

export function Pagination({
  page,
  pageSize,
  shown,
  total,
  onPage,
  label = "Pages of users",
}: {
  page: number;
  pageSize: number;
  shown: number;
  total: number;
  onPage: (page: number) => void;
  label?: string;
}) {
  const { from, to } = pageRange(page, pageSize, shown, total);
  const last = pageCount(total, pageSize);
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-3">
      <p className="text-sm text-muted-foreground tabular-nums" aria-live="polite">
        {ADMIN_TEXT.range(from, to, total)}
      </p>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" onClick={() => onPage(page - 1)} disabled={page <= 1}>
          <ChevronLeft aria-hidden />
          {ADMIN_TEXT.previous}
        </Button>
        <Button variant="outline" size="sm" onClick={() => onPage(page + 1)} disabled={page >= last}>
          {ADMIN_TEXT.next}
          <ChevronRight aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
