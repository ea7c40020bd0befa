// The records a user creates at their DNS provider: a three-column table from 640 px, stacked
// label and value below it. Names and values are long (tokens, IPv6), so they break anywhere.
import { DOMAIN_TEXT, type DnsRecord } from "../../../common/domains";
import { CopyButton } from "../ui/CopyButton";
import { orderedRecords } from "./domains";

const COLUMNS = "sm:grid-cols-[4.5rem_minmax(0,1fr)_minmax(0,1.4fr)]";

export function DnsRecords({ records }: { records: DnsRecord[] }) {
  const alias = records.some((record) => record.type === "ALIAS");
  return (
    <div className="grid gap-2">
      <div className="overflow-hidden rounded-lg border text-sm">
        <div className={`hidden gap-4 border-b bg-muted/50 px-3 py-2 text-xs font-medium text-muted-foreground sm:grid ${COLUMNS}`} aria-hidden>
          <span>Type</span>
          <span>Name</span>
          <span>Value</span>
        </div>
        <ul className="divide-y" aria-label="DNS records">
          {orderedRecords(records).map((record) => (
            <li key={`${record.type} ${record.name} ${record.value}`} className={`grid gap-1.5 px-3 py-2.5 sm:items-center sm:gap-4 ${COLUMNS}`}>
              <span>
                <span className="sr-only">Type </span>
                <span className="inline-flex h-6 items-center rounded-md border bg-background px-2 font-mono text-xs font-semibold">
                  {record.type}
                </span>
              </span>
              <RecordValue label="Name" value={record.name} type={record.type} />
              <RecordValue label="Value" value={record.value} type={record.type} />
            </li>
          ))}
        </ul>
      </div>
      {alias && <p className="text-xs text-muted-foreground">{DOMAIN_TEXT.alias}</p>}
    </div>
  );
}

function RecordValue({ label, value, type }: { label: string; value: string; type: DnsRecord["type"] }) {
  // On a phone the label sits above the value, so a long token gets the whole width.
  return (
    <div className="min-w-0">
      <span className="text-xs text-muted-foreground sm:sr-only">{label}</span>
      <div className="flex min-w-0 items-center gap-2">
        <code className="min-w-0 flex-1 font-mono text-[13px] break-all">{value}</code>
        <CopyButton value={value} label={`Copy ${type} record ${label.toLowerCase()}`} className="-my-1" />
      </div>
    </div>
  );
}
