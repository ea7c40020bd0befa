// /dashboard/sites/:siteId — one site: its header and actions, then Files, Deployments,
// Analytics, Sharing and Settings. The tab and the open folder are kept in the URL.
import { useEffect, useState } from "react";
import { useParams, useSearchParams } from "react-router";
import { toast } from "sonner";
import { AlertTriangle, BarChart3, FolderTree, History, Settings2, Share2, type LucideIcon } from "lucide-react";
import { daysUntilPurge, SITE_TEXT } from "../../../common/sites";
import { PRODUCT_NAME } from "../../../common/texts";
import { AnalyticsTab } from "../../components/sites/detail/AnalyticsTab";
import { DeploymentsTab } from "../../components/sites/detail/DeploymentsTab";
import { EditSiteDialog } from "../../components/sites/detail/EditSiteDialog";
import { FilesTab } from "../../components/sites/detail/FilesTab";
import { normalizeFolderPath } from "../../components/sites/detail/paths";
import { SettingsTab } from "../../components/sites/detail/SettingsTab";
import { SharingTab } from "../../components/sites/detail/SharingTab";
import { SiteDetailSkeleton, SiteLoadFailed, SiteNotFound } from "../../components/sites/detail/SiteDetailStates";
import { SiteFacts, SiteHeader } from "../../components/sites/detail/SiteHeader";
import { nextSearch, parseTab, SITE_TAB_LABEL, SITE_TABS, type SiteTab } from "../../components/sites/detail/tabs";
import { useSiteEvents } from "../../components/sites/detail/useSiteEvents";
import { Alert, AlertDescription, AlertTitle } from "../../components/ui/Alert";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../../components/ui/Tabs";
import { ApiError } from "../../lib/api";
import { useSite } from "../../lib/queries";

const TAB_ICON: Record<SiteTab, LucideIcon> = {
  files: FolderTree,
  deployments: History,
  analytics: BarChart3,
  sharing: Share2,
  settings: Settings2,
};

export function SiteDetail() {
  const { siteId = "" } = useParams();
  const site = useSite(siteId);
  const [search, setSearch] = useSearchParams();
  const [editing, setEditing] = useState(false);
  const tab = parseTab(search.get("tab"));
  const path = normalizeFolderPath(search.get("path"));
  const notFound = site.error instanceof ApiError && site.error.status === 404;

  useSiteEvents(siteId);

  useEffect(() => {
    if (site.error && !notFound) toast.error(SITE_TEXT.loadFailed, { description: SITE_TEXT.tryLater });
  }, [site.error, site.errorUpdatedAt, notFound]);

  const name = site.data?.name;
  useEffect(() => {
    document.title = `${name ?? (notFound ? SITE_TEXT.notFoundTitle : "Site")} · ${PRODUCT_NAME}`;
  }, [name, notFound]);

  if (notFound) return <SiteNotFound />;
  if (!site.data) {
    if (site.isError) return <SiteLoadFailed message={SITE_TEXT.tryLater} onRetry={() => void site.refetch()} retrying={site.isFetching} />;
    return <SiteDetailSkeleton />;
  }
  const data = site.data;

  // Tabs replace the history entry; opening a folder adds one, so Back goes up a folder.
  const selectTab = (next: string) => setSearch(nextSearch(search, { tab: parseTab(next) }), { replace: true });
  const openPath = (next: string | null) => setSearch(nextSearch(search, { path: next }));

  return (
    <div className="flex flex-col gap-6">
      <SiteHeader site={data} onEdit={() => setEditing(true)} />

      {data.is_deleted && (
        <Alert variant="destructive" role="status">
          <AlertTriangle aria-hidden />
          <AlertTitle>{SITE_TEXT.deletionBanner(daysUntilPurge(new Date(data.deleted_at ?? data.created_at)))}</AlertTitle>
          <AlertDescription>The site is offline and its files can't be changed. Restore it to bring it back exactly as it was.</AlertDescription>
        </Alert>
      )}
      <SiteFacts site={data} />

      <Tabs value={tab} onValueChange={selectTab} className="flex flex-col gap-6">
        <TabsList aria-label="Site sections">
          {SITE_TABS.map((value) => {
            const Icon = TAB_ICON[value];
            return (
              <TabsTrigger key={value} value={value}>
                <Icon aria-hidden className="hidden sm:block" />
                {SITE_TAB_LABEL[value]}
              </TabsTrigger>
            );
          })}
        </TabsList>
        <TabsContent value="files">
          <FilesTab site={data} path={path} onOpenPath={openPath} />
        </TabsContent>
        <TabsContent value="deployments">
          <DeploymentsTab site={data} />
        </TabsContent>
        <TabsContent value="analytics">
          <AnalyticsTab site={data} />
        </TabsContent>
        <TabsContent value="sharing">
          <SharingTab site={data} />
        </TabsContent>
        <TabsContent value="settings">
          <SettingsTab site={data} onEdit={() => setEditing(true)} />
        </TabsContent>
      </Tabs>

      <EditSiteDialog site={data} open={editing} onOpenChange={setEditing} />
    </div>
  );
}
