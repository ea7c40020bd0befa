import { HelpCircle, LayoutDashboard, Globe, Link2, Plug, Settings, ShieldCheck, type LucideIcon } from "lucide-react";
import { DASHBOARD_SHELL_TEXT, DASHBOARD_TEXT } from "../../../common/texts";

export interface NavItem {
  to: string;
  label: string;
  Icon: LucideIcon;
  /** Only the exact path counts as active (the overview would otherwise match every page). */
  end?: boolean;
}

export const MAIN_NAV: NavItem[] = [
  {
    to: "/dashboard",
    label: DASHBOARD_TEXT.nav.dashboard,
    Icon: LayoutDashboard,
    end: true,
  },
  { to: "/dashboard/sites", label: DASHBOARD_TEXT.nav.sites, Icon: Globe },
  { to: "/dashboard/domains", label: DASHBOARD_TEXT.nav.domains, Icon: Link2 },
  { to: "/dashboard/integrations", label: DASHBOARD_TEXT.nav.integrations, Icon: Plug },
  {
    to: "/dashboard/settings",
    label: DASHBOARD_TEXT.nav.settings,
    Icon: Settings,
  },
];

export const SECONDARY_NAV: NavItem[] = [{ to: "/dashboard/help", label: DASHBOARD_TEXT.nav.help, Icon: HelpCircle }];

/** The operator's page; listed only for admins (the server answers 404 to everyone else). */
export const ADMIN_NAV: NavItem = {
  to: "/dashboard/admin",
  label: DASHBOARD_SHELL_TEXT.admin,
  Icon: ShieldCheck,
};

/** The main list for this user: the admin page joins it for admins. */
export function mainNavFor(isAdmin: boolean): NavItem[] {
  return isAdmin ? [...MAIN_NAV, ADMIN_NAV] : MAIN_NAV;
}
