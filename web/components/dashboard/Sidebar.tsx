import { useState, type ReactElement } from "react";
import { Link, useMatch, useNavigate } from "react-router";
import { LogOut, type LucideIcon } from "lucide-react";
import { DASHBOARD_TEXT } from "../../../common/texts";
import { cn } from "../../lib/cn";
import { useSession } from "../../lib/session";
import { BerthLogo } from "../ui/BerthLogo";
import { Tooltip, TooltipContent, TooltipTrigger } from "../ui/Tooltip";
import { SECONDARY_NAV, mainNavFor, type NavItem } from "./nav";

const ITEM =
  "group flex h-9 w-full items-center gap-3 rounded-md px-2.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring cursor-pointer";
const IDLE = "text-muted-foreground hover:bg-muted hover:text-foreground";
const ACTIVE = "bg-accent text-accent-foreground";

/**
 * The dashboard's navigation: the desktop sidebar (full or icons only) and the contents of the
 * phone slide-over. `onNavigate` lets the slide-over close when a link is followed.
 */
export function SidebarNav({ collapsed = false, onNavigate }: { collapsed?: boolean; onNavigate?: () => void }) {
  const isAdmin = useSession().account?.isAdmin === true;
  return (
    <div className="flex h-full flex-col">
      <div className={cn("flex h-16 shrink-0 items-center border-b", collapsed ? "justify-center px-2" : "px-5")}>
        <BerthLogo to="/dashboard" showWordmark={!collapsed} />
      </div>
      <nav aria-label="Dashboard" className="flex flex-1 flex-col gap-6 overflow-y-auto p-3">
        <ul className="flex flex-col gap-1">
          {mainNavFor(isAdmin).map((item) => (
            <li key={item.to}>
              <SidebarLink item={item} collapsed={collapsed} onNavigate={onNavigate} />
            </li>
          ))}
        </ul>
        <ul className="mt-auto flex flex-col gap-1">
          {SECONDARY_NAV.map((item) => (
            <li key={item.to}>
              <SidebarLink item={item} collapsed={collapsed} onNavigate={onNavigate} />
            </li>
          ))}
          <li>
            <LogoutButton collapsed={collapsed} onNavigate={onNavigate} />
          </li>
        </ul>
      </nav>
    </div>
  );
}

function SidebarLink({ item, collapsed, onNavigate }: { item: NavItem; collapsed: boolean; onNavigate: (() => void) | undefined }) {
  // Matched here rather than through NavLink's className callback: the tooltip's Slot merges
  // class names as strings and would drop a function.
  const active = useMatch({ path: item.to, end: item.end ?? false }) !== null;
  const link = (
    <Link
      to={item.to}
      onClick={onNavigate}
      aria-current={active ? "page" : undefined}
      aria-label={collapsed ? item.label : undefined}
      className={cn(ITEM, active ? ACTIVE : IDLE, collapsed && "justify-center px-0")}
    >
      <ItemBody Icon={item.Icon} label={item.label} collapsed={collapsed} highlighted={active} />
    </Link>
  );
  return collapsed ? <WithTooltip label={item.label}>{link}</WithTooltip> : link;
}

function LogoutButton({ collapsed, onNavigate }: { collapsed: boolean; onNavigate: (() => void) | undefined }) {
  const session = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const label = DASHBOARD_TEXT.nav.logout;

  async function logout() {
    setBusy(true);
    onNavigate?.();
    try {
      await session.signOut();
    } finally {
      void navigate("/auth/login", { replace: true });
    }
  }

  const button = (
    <button
      type="button"
      onClick={logout}
      disabled={busy}
      aria-label={collapsed ? label : undefined}
      className={cn(ITEM, IDLE, "disabled:opacity-60", collapsed && "justify-center px-0")}
    >
      <ItemBody Icon={LogOut} label={label} collapsed={collapsed} highlighted={false} />
    </button>
  );
  return collapsed ? <WithTooltip label={label}>{button}</WithTooltip> : button;
}

function ItemBody({ Icon, label, collapsed, highlighted }: { Icon: LucideIcon; label: string; collapsed: boolean; highlighted: boolean }) {
  return (
    <>
      <Icon className={cn("size-[18px] shrink-0", highlighted ? "text-primary" : "text-muted-foreground group-hover:text-foreground")} aria-hidden />
      {!collapsed && <span className="truncate">{label}</span>}
    </>
  );
}

function WithTooltip({ label, children }: { label: string; children: ReactElement }) {
  return (
    <Tooltip>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent side="right">{label}</TooltipContent>
    </Tooltip>
  );
}
