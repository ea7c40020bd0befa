import {
  HelpCircle,
  LayoutDashboard,
  Globe,
  Settings,
  type LucideIcon,
} from "lucide-react";
import { DASHBOARD_TEXT } from "../../../common/texts";

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
  {
    to: "/dashboard/settings",
    label: DASHBOARD_TEXT.nav.settings,
    Icon: Settings,
  },
];

export const SECONDARY_NAV: NavItem[] = [
  { to: "/dashboard/help", label: DASHBOARD_TEXT.nav.help, Icon: HelpCircle },
];
