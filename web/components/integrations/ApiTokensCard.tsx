// The user's API tokens (GET /api/tokens): what a token is for, the list, Create token and
// Revoke. The secret is shown once, in the create dialog; the list knows only each prefix.
import { useMemo, useState } from "react";
import { KeyRound, Plus } from "lucide-react";
import { PRODUCT_NAME } from "../../../common/texts";
import { useApiTokens, useSites } from "../../lib/queries";
import { useNow } from "../../lib/useNow";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/Card";
import { LoadError } from "../ui/LoadError";
import { Placeholder } from "../ui/Placeholder";
import { Loading, SkeletonRow } from "../ui/Skeleton";
import { ApiTokenItem } from "./ApiTokenItem";
import { NewApiTokenDialog } from "./NewApiTokenDialog";

export function ApiTokensCard() {
  const tokens = useApiTokens();
  const sites = useSites();
  const now = useNow(30_000);
  const [creating, setCreating] = useState(false);
  // A site marked for deletion can only be restored, which a token may not do.
  const sitesToChoose = useMemo(() => (sites.data ?? []).filter((site) => !site.is_deleted), [sites.data]);
  const create = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden />
      Create token
    </Button>
  );

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4 border-b">
        <div className="grid min-w-0 flex-1 basis-72 gap-1.5">
          <CardTitle className="flex items-center gap-2 text-base">
            <KeyRound className="size-4 text-muted-foreground" aria-hidden />
            API tokens
          </CardTitle>
          <CardDescription className="leading-relaxed">
            A token lets scripts, CI jobs and the <code className="font-mono text-[13px] text-foreground">berth</code> command-line tool use{" "}
            {PRODUCT_NAME} as you, without signing in. Send it in the{" "}
            <code className="font-mono text-[13px] break-words text-foreground">Authorization: Bearer berth_…</code> header. Each token covers all
            your sites or one, with the permission you choose, and can be revoked at any time.
          </CardDescription>
        </div>
        {tokens.isSuccess && tokens.data.length > 0 && create}
      </CardHeader>
      <CardContent className="p-0">
        {tokens.isPending ? (
          <Loading label="Loading API tokens" className="divide-y">
            {[0, 1].map((row) => (
              <SkeletonRow key={row} media="size-8 rounded-full" className="px-6 py-4" />
            ))}
          </Loading>
        ) : tokens.isError ? (
          <LoadError
            inline
            title="Failed to load API tokens"
            message={tokens.error.message}
            onRetry={() => void tokens.refetch()}
            retrying={tokens.isFetching}
            className="px-6 py-5"
          />
        ) : tokens.data.length === 0 ? (
          <Placeholder
            icon={<KeyRound className="size-6" aria-hidden />}
            title="No API tokens yet"
            body="Create one for each script, CI pipeline or computer, so you can revoke one without breaking the others."
            heading="h3"
            className="m-4 py-10 sm:m-6"
          >
            {create}
          </Placeholder>
        ) : (
          <ul className="divide-y" aria-label="API tokens">
            {tokens.data.map((token) => (
              <ApiTokenItem key={token.id} token={token} now={now} />
            ))}
          </ul>
        )}
      </CardContent>
      <NewApiTokenDialog open={creating} onOpenChange={setCreating} sites={sitesToChoose} />
    </Card>
  );
}
