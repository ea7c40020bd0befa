import { Clock } from "lucide-react";
import { CONTACT_OFFICE_HOURS_SUMMARY } from "../../../../common/texts";
import { usePublicConfig } from "../../../lib/usePublicConfig";
import { Skeleton } from "../../ui/Skeleton";
import { contactLines, type ContactLine } from "../ContactLines";

function Row({ icon: Icon, label, value, href }: Omit<ContactLine, "key">) {
  return (
    <li className="flex gap-4">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
        <Icon aria-hidden className="size-[1.125rem]" />
      </span>
      <div className="min-w-0">
        <p className="text-sm font-medium">{label}</p>
        {href ? (
          <a href={href} className="block break-words text-sm text-muted-foreground transition-colors hover:text-primary">
            {value}
          </a>
        ) : (
          <p className="text-sm text-muted-foreground">{value}</p>
        )}
      </div>
    </li>
  );
}

/** The operator's address, e-mail and phone (each only if configured) and the office hours. */
export function ContactInfo() {
  const config = usePublicConfig();
  const lines = contactLines(config.data);
  return (
    <section aria-labelledby="contact-info-title" className="rounded-xl border bg-card p-6 shadow-xs sm:p-7">
      <h2 id="contact-info-title" className="text-lg font-semibold tracking-tight">
        Contact information
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">Reach the team that runs this Berth server.</p>
      <ul className="mt-6 space-y-5">
        {config.isPending
          ? [0, 1, 2].map((n) => (
              <li key={n} className="flex gap-4" aria-hidden>
                <Skeleton className="size-10 rounded-lg" />
                <div className="flex-1 space-y-2 pt-1">
                  <Skeleton className="h-3.5 w-16" />
                  <Skeleton className="h-3.5 w-44" />
                </div>
              </li>
            ))
          : lines.map(({ key, ...line }) => <Row key={key} {...line} />)}
        <Row icon={Clock} label="Office hours" value={CONTACT_OFFICE_HOURS_SUMMARY} />
      </ul>
    </section>
  );
}
