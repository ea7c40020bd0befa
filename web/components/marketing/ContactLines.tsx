import { Mail, MapPin, Phone, type LucideIcon } from "lucide-react";
import type { PublicConfigResponse } from "../../../common/api";
import { cn } from "../../lib/cn";

export interface ContactLine {
  key: "address" | "email" | "phone";
  label: string;
  value: string;
  href?: string;
  icon: LucideIcon;
}

/** The operator's contact details that are configured; an unset one is left out, not shown blank. */
export function contactLines(config: PublicConfigResponse | undefined): ContactLine[] {
  if (!config) return [];
  const lines: ContactLine[] = [];
  if (config.contactAddress) lines.push({ key: "address", label: "Address", value: config.contactAddress, icon: MapPin });
  if (config.contactEmail)
    lines.push({ key: "email", label: "Email", value: config.contactEmail, href: `mailto:${config.contactEmail}`, icon: Mail });
  if (config.contactPhone)
    lines.push({
      key: "phone",
      label: "Phone",
      value: config.contactPhone,
      href: `tel:${config.contactPhone.replace(/[^+\d]/g, "")}`,
      icon: Phone,
    });
  return lines;
}

export function ContactLinks({ lines, className }: { lines: ContactLine[]; className?: string }) {
  return (
    <ul className={cn("space-y-2.5 text-sm", className)}>
      {lines.map(({ key, label, value, href, icon: Icon }) => (
        <li key={key} className="flex items-start gap-2.5">
          <Icon aria-hidden className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
          <span className="sr-only">{label}: </span>
          {href ? (
            <a href={href} className="break-all text-muted-foreground transition-colors hover:text-foreground">
              {value}
            </a>
          ) : (
            <span className="text-muted-foreground">{value}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
