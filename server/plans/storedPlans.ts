// Startup's check that every account's plan is one the server offers. A plans file that drops a
// plan still in use would otherwise leave those accounts on limits no one chose: falling back to
// the default plan would quietly shrink a paying account (its older deployments pruned at the next
// publish), so Berth refuses to start and names the accounts instead. The admin CLI runs without
// the server, so the operator can move them (`set-plan`) or put the plan back.
import type { PlanCatalog } from "../../common/plans";
import type { Executor } from "../db/client";
import { accountsOnPlansOutside } from "../db/repositories/profiles";

/** How many addresses the message names per plan. */
const EMAILS_SHOWN = 5;

export class UnknownStoredPlansError extends Error {}

export async function checkStoredPlans(db: Executor, plans: PlanCatalog): Promise<void> {
  const strays = await accountsOnPlansOutside(
    db,
    plans.plans.map((plan) => plan.id),
    EMAILS_SHOWN,
  );
  if (strays.length === 0) return;
  const lines = strays.map(({ plan, count, emails }) => {
    const more = count > emails.length ? ` and ${count - emails.length} more` : "";
    return `  - "${plan}": ${count} ${count === 1 ? "account" : "accounts"} (${emails.join(", ")}${more})`;
  });
  throw new UnknownStoredPlansError(
    `accounts are on plans this server does not offer (its plans: ${plans.plans.map((plan) => plan.id).join(", ")}, from BERTH_PLANS_FILE or built in):\n` +
      `${lines.join("\n")}\n` +
      `Add those plans to the file, or move the accounts to one it defines with ` +
      `\`npm run berth -- admin set-plan <email> <plan>\` (it runs while Berth is stopped), then start Berth again.`,
  );
}
