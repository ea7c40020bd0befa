// The docs' table of the server's plans (GET /api/config), as the server enforces them.
import { Check, Minus } from "lucide-react";
import { formatPlanLimit, versionsKept, type Plan } from "../../../../common/plans";
import { usePlans } from "../../../lib/usePlans";
import { Skeleton } from "../../ui/Skeleton";
import { DocSection } from "./DocBits";

const ROWS: { label: string; value: (plan: Plan) => string | boolean }[] = [
  { label: "Price", value: (p) => (p.priceNote ? `${p.price} ${p.priceNote}` : p.price) },
  { label: "Total storage", value: (p) => formatPlanLimit(p.storageBytes) },
  { label: "Largest single file", value: (p) => formatPlanLimit(p.maxFileBytes) },
  { label: "Custom domains", value: (p) => p.customDomains },
  { label: "Password-protected links", value: (p) => p.passwordProtection },
  { label: "Expiring links", value: (p) => p.expiringLinks },
  { label: "Private sites, open only through share links", value: (p) => p.privateSites },
  { label: "Site expiry and go-live times", value: (p) => p.siteExpiry },
  { label: "Versions kept per site (file history and restores)", value: (p) => (versionsKept(p) === null ? "All" : `The last ${versionsKept(p)}`) },
  { label: "Point-in-time recovery: the site as it was at any moment", value: (p) => p.pointInTimeRecovery },
];

function Cell({ value }: { value: string | boolean }) {
  if (typeof value === "string") return <>{value}</>;
  return value ? (
    <>
      <Check aria-hidden className="inline size-4 text-success" />
      <span className="sr-only">Included</span>
    </>
  ) : (
    <>
      <Minus aria-hidden className="inline size-4 text-muted-foreground/60" />
      <span className="sr-only">Not included</span>
    </>
  );
}

export function PlanLimits() {
  const plans = usePlans()?.plans;
  return (
    <DocSection
      id="limits"
      title="Plans and limits"
      lead="Limits are checked by the server on every upload. The operator of a Berth server decides which plan each account is on."
    >
      {!plans && <Skeleton className="h-96 w-full rounded-xl" />}
      {plans && (
        <div className="overflow-x-auto rounded-xl border">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">What each plan allows</caption>
            <thead className="bg-muted/60">
              <tr>
                <th scope="col" className="px-3 py-3 sm:px-4 font-medium text-muted-foreground">
                  Limit
                </th>
                {plans.map((plan) => (
                  <th key={plan.id} scope="col" className="px-3 py-3 sm:px-4 font-semibold">
                    {plan.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y">
              {ROWS.map((row) => (
                <tr key={row.label}>
                  <th scope="row" className="px-3 py-3 sm:px-4 font-normal text-foreground/85">
                    {row.label}
                  </th>
                  {plans.map((plan) => (
                    <td key={plan.id} className="px-3 py-3 sm:px-4 font-medium">
                      <Cell value={row.value(plan)} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="text-sm text-muted-foreground">Sizes are counted in binary units: 1 MB is 1,024 KB.</p>
      <p className="text-sm text-muted-foreground">
        Storage counts every file you keep once, across your sites and their kept versions. The compressed copies (brotli and gzip) Berth makes of
        text files to serve them faster are its own, and count against no one's storage.
      </p>
    </DocSection>
  );
}
