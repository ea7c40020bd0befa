// The server's plans (GET /api/config): the ones it enforces, BERTH_PLANS_FILE's or the built-in
// Free and Pro. Every page that names a plan, a limit or a price reads them here; none has numbers
// of its own. Undefined until the config has arrived.
import type { PlanCatalog } from "../../common/plans";
import { usePublicConfig } from "./usePublicConfig";

export function usePlans(): PlanCatalog | undefined {
  return usePublicConfig().data?.plans;
}
