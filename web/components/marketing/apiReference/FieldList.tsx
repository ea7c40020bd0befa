// Fields of a body, a query or an answer, one row each: name (nested ones dotted), type, limits
// and what it means. What a client sends marks the fields it must send; an answer, which always
// carries its fields, marks the ones it may leave out. Two columns on wide screens, stacked on phones.
import type { FieldRow } from "./apiDocument";
import { CodeText } from "./CodeText";

export function FieldList({ rows, label, answer = false }: { rows: FieldRow[]; label: string; answer?: boolean }) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">No fields.</p>;
  return (
    <dl aria-label={label} className="divide-y overflow-hidden rounded-lg border text-sm">
      {rows.map((row) => {
        const cut = row.name.lastIndexOf(".") + 1;
        const marker = answer ? (row.required ? undefined : "optional") : row.required ? "required" : undefined;
        return (
          <div key={row.name} className="grid gap-1 px-3 py-2.5 sm:grid-cols-[minmax(0,13rem)_minmax(0,1fr)] sm:gap-4">
            <dt className="min-w-0 break-words">
              <code className="font-mono text-[13px]">
                {cut > 0 ? <span className="text-muted-foreground">{row.name.slice(0, cut)}</span> : null}
                <span className="font-medium text-foreground">{row.name.slice(cut)}</span>
              </code>
              {marker ? (
                <span
                  className={
                    marker === "required"
                      ? "ml-2 text-[11px] font-medium tracking-wide whitespace-nowrap text-destructive uppercase"
                      : "ml-2 text-[11px] font-medium tracking-wide whitespace-nowrap text-muted-foreground uppercase"
                  }
                >
                  {marker}
                </span>
              ) : null}
            </dt>
            <dd className="min-w-0">
              <span className="font-mono text-[13px] break-words text-primary">{row.type}</span>
              {row.notes.length > 0 ? <span className="ml-2 text-xs text-muted-foreground">{row.notes.join(" · ")}</span> : null}
              {row.description ? (
                <p className="mt-0.5 leading-6 text-foreground/75">
                  <CodeText text={row.description} />
                </p>
              ) : null}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
