// /dashboard/integrations: how machines use Berth for the user: API tokens, the key that scripts,
// CI and the command-line tool send instead of a browser session, and webhooks, which tell the
// user's own URLs what happened to their sites.
import { useEffect } from "react";
import { DASHBOARD_TEXT, PRODUCT_NAME } from "../../../common/texts";
import { ApiTokensCard } from "../../components/integrations/ApiTokensCard";
import { WebhooksCard } from "../../components/integrations/WebhooksCard";

export function Integrations() {
  useEffect(() => {
    document.title = `${DASHBOARD_TEXT.nav.integrations} · ${PRODUCT_NAME}`;
  }, []);

  return (
    <div className="flex flex-col gap-6">
      <div className="min-w-0">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{DASHBOARD_TEXT.nav.integrations}</h1>
        <p className="mt-1.5 max-w-2xl text-sm text-muted-foreground">
          Deploy and manage your sites from scripts, CI pipelines and the terminal, without the dashboard, and hear of what happens to them at your
          own URLs.
        </p>
      </div>
      <ApiTokensCard />
      <WebhooksCard />
    </div>
  );
}
