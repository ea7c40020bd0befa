// A share link's access log: when it was opened (local time), from which country when a GeoIP
// source is configured, and in which browser. Fetched when the log is opened.
import { SHARE_LOG_LIMIT, SHARE_LINK_UI_TEXT } from "../../../common/shareLinks";
import { useShareLinkOpens } from "../../lib/queries";
import { LoadError } from "../ui/LoadError";
import { Loading, Skeleton } from "../ui/Skeleton";
import { browserLabel, countryLabel } from "./shareLinks";

const COLUMNS = "sm:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,1.4fr)]";

export function AccessLog({ id, siteId, linkId }: { id: string; siteId: string; linkId: string }) {
  const opens = useShareLinkOpens(siteId, linkId, true);

  return (
    <div id={id} className="rounded-lg border bg-muted/30 text-sm">
      {opens.isPending ? (
        <Loading label="Loading the access log" className="grid gap-2 p-3">
          <Skeleton className="h-4 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
        </Loading>
      ) : opens.isError ? (
        <LoadError inline title={SHARE_LINK_UI_TEXT.logFailed} onRetry={() => void opens.refetch()} retrying={opens.isFetching} className="p-3" />
      ) : opens.data.length === 0 ? (
        <p className="p-3 text-muted-foreground">{SHARE_LINK_UI_TEXT.noOpens}</p>
      ) : (
        <>
          <div className={`hidden gap-4 border-b px-3 py-2 text-xs font-medium text-muted-foreground sm:grid ${COLUMNS}`} aria-hidden>
            <span>Opened</span>
            <span>Country</span>
            <span>Browser</span>
          </div>
          <ul className="divide-y" aria-label="Opens">
            {opens.data.map((open, index) => (
              <li key={`${open.opened_at} ${index}`} className={`grid gap-0.5 px-3 py-2 sm:gap-4 ${COLUMNS}`}>
                <time dateTime={open.opened_at} className="tabular-nums">
                  {new Date(open.opened_at).toLocaleString()}
                </time>
                {/* One line under the time on a phone; two cells of the row from 640 px. */}
                <span className="flex min-w-0 gap-1.5 text-muted-foreground sm:contents sm:text-foreground">
                  <span className="shrink-0">
                    <span className="sr-only">Country: </span>
                    {countryLabel(open.country)}
                  </span>
                  <span className="sm:hidden" aria-hidden>
                    ·
                  </span>
                  <span className="truncate" title={open.user_agent ?? undefined}>
                    <span className="sr-only">Browser: </span>
                    {browserLabel(open.user_agent)}
                  </span>
                </span>
              </li>
            ))}
          </ul>
          {opens.data.length >= SHARE_LOG_LIMIT && (
            <p className="border-t px-3 py-2 text-xs text-muted-foreground">The last {SHARE_LOG_LIMIT} opens.</p>
          )}
        </>
      )}
    </div>
  );
}
