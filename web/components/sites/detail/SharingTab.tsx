// The site page's Sharing tab: whether the site is private, and its share links.
import type { SiteResponse } from "../../../../common/sites";
import { useStats } from "../../../lib/queries";
import { ShareLinksCard } from "../../sharing/ShareLinksCard";
import { VisibilityCard } from "../../sharing/VisibilityCard";

export function SharingTab({ site }: { site: SiteResponse }) {
  const stats = useStats().data;
  return (
    <div className="grid grid-cols-1 gap-6">
      <VisibilityCard site={site} stats={stats} />
      <ShareLinksCard site={site} stats={stats} />
    </div>
  );
}
