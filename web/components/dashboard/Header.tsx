import { useState } from "react";
import { Menu as MenuIcon, PanelLeftClose, PanelLeftOpen, Search, Sparkles } from "lucide-react";
import { DASHBOARD_SHELL_TEXT as T, DASHBOARD_TEXT } from "../../../common/texts";
import { findPlan, upgradeFor, upgradeTarget } from "../../../common/plans";
import { useSession } from "../../lib/session";
import { usePlans } from "../../lib/usePlans";
import { SiteSearch } from "../sites/SiteSearch";
import { Button } from "../ui/Button";
import { Popover, PopoverContent, PopoverTrigger } from "../ui/Popover";
import { Greeting } from "./Greeting";
import { NotificationsMenu } from "./NotificationsMenu";
import { UpgradeDialog } from "./UpgradeDialog";
import { UserMenu } from "./UserMenu";

export function Header({
  name,
  email,
  avatarUrl,
  collapsed,
  onToggleCollapsed,
  onOpenMenu,
}: {
  name: string;
  email: string;
  avatarUrl: string | null;
  collapsed: boolean;
  onToggleCollapsed: () => void;
  onOpenMenu: () => void;
}) {
  return (
    // Below 640 px the greeting takes a second row, so neither it (with the user's name) nor the
    // controls' labels are squeezed out of one 375 px line.
    <header className="sticky top-0 z-30 flex shrink-0 flex-wrap items-center gap-x-2 border-b bg-background/85 px-3 py-2.5 backdrop-blur supports-[backdrop-filter]:bg-background/70 sm:h-16 sm:flex-nowrap sm:gap-3 sm:px-6 sm:py-0">
      <Button variant="ghost" size="icon" className="size-9 shrink-0 md:hidden" aria-label={T.openMenu} onClick={onOpenMenu}>
        <MenuIcon className="size-5" aria-hidden />
      </Button>
      <Button
        variant="ghost"
        size="icon"
        className="hidden size-9 shrink-0 text-muted-foreground hover:text-foreground md:inline-flex"
        aria-label={collapsed ? T.expandSidebar : T.collapseSidebar}
        aria-expanded={!collapsed}
        aria-controls="dashboard-sidebar"
        onClick={onToggleCollapsed}
      >
        {collapsed ? <PanelLeftOpen className="size-[18px]" aria-hidden /> : <PanelLeftClose className="size-[18px]" aria-hidden />}
      </Button>
      <div className="hidden h-6 w-px bg-border md:block" aria-hidden />
      <div className="order-last mt-1.5 w-full min-w-0 pl-1 sm:order-none sm:mt-0 sm:w-auto sm:flex-1">
        <Greeting name={name} />
      </div>
      <SiteSearch shortcut className="hidden w-64 lg:block xl:w-72" />
      <div className="ml-auto flex shrink-0 items-center gap-1 sm:ml-0 sm:gap-2">
        <PhoneSearch />
        <PlanButton />
        <NotificationsMenu />
        <UserMenu name={name} email={email} avatarUrl={avatarUrl} />
      </div>
    </header>
  );
}

/** Below 1024 px the header has no room for a box beside the greeting: a button opens it in a panel. */
function PhoneSearch() {
  const [open, setOpen] = useState(false);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="size-9 text-muted-foreground hover:text-foreground lg:hidden" aria-label="Search sites">
          <Search className="size-[18px]" aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-[min(calc(100vw-24px),420px)] p-2" aria-label="Search sites">
        <SiteSearch autoFocus onDone={() => setOpen(false)} />
      </PopoverContent>
    </Popover>
  );
}

/**
 * 'Upgrade to Pro' (the plan the server's plans offer) for accounts below it; a quiet badge with
 * the plan's name (same plans dialog) for one offered nothing higher.
 */
function PlanButton() {
  const planId = useSession().account?.plan;
  const plans = usePlans();
  if (!plans) return null;
  const current = planId === undefined ? undefined : findPlan(plans, planId);
  const offered = planId === undefined ? upgradeTarget(plans) : upgradeFor(plans, planId);
  if (current && !offered) {
    return (
      <UpgradeDialog currentPlan={current.id}>
        <Button variant="outline" size="sm" className="h-9 gap-1.5 px-2.5 text-primary" aria-label={`${current.name} plan`}>
          <Sparkles aria-hidden />
          {current.name}
        </Button>
      </UpgradeDialog>
    );
  }
  if (!offered) return null;
  return (
    <UpgradeDialog currentPlan={planId}>
      <Button size="sm" className="h-9 bg-gradient-to-r from-primary to-violet-600 px-2.5 shadow-sm shadow-primary/25 hover:opacity-95 sm:px-3.5">
        <Sparkles aria-hidden />
        {DASHBOARD_TEXT.upgrade(offered.name)}
      </Button>
    </UpgradeDialog>
  );
}
