import type { PlanCatalog } from "../../../common/plans";
import type { UpgradeRequest } from "../../../common/support";
import type { UpgradeRequestRow } from "../../db/repositories/upgradeRequests";

/** The plan a request asks for: a request made before requests named their plan asked for upgradeTo. */
export function requestedPlanId(plans: PlanCatalog, row: Pick<UpgradeRequestRow, "plan">): string | null {
  return row.plan ?? plans.upgradeTo;
}

export function presentUpgradeRequest(plans: PlanCatalog, row: UpgradeRequestRow): UpgradeRequest {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    answeredAt: row.answered_at?.toISOString() ?? null,
    plan: requestedPlanId(plans, row),
  };
}
