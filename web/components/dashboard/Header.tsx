import { useState } from "react";
import { Menu as MenuIcon, PanelLeftClose, PanelLeftOpen, Search, Sparkles } from "lucide-react";
import { DASHBOARD_SHELL_TEXT as T, DASHBOARD_TEXT } from "../../../common/texts";
import { useSession } from "../../lib/session";
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
    <header className="sticky top-0 z-30 flex h-16 shrink-0 items-center gap-2 border-b bg-background/85 px-3 backdrop-blur supports-[backdrop-filter]:bg-background/70 sm:gap-3 sm:px-6">
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
      <div className="min-w-0 flex-1 pl-1">
        <Greeting name={name} />
      </div>
      <SiteSearch shortcut className="hidden w-64 lg:block xl:w-72" />
      <div className="flex shrink-0 items-center gap-1 sm:gap-2">
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

/** 'Upgrade to Pro' for Free accounts; a quiet Pro badge (same plans dialog) once upgraded. */
function PlanButton() {
  const plan = useSession().account?.plan;
  if (plan === "pro") {
    return (
      <UpgradeDialog currentPlan="pro">
        <Button variant="outline" size="sm" className="h-9 gap-1.5 px-2.5 text-primary" aria-label="Pro plan">
          <Sparkles aria-hidden />
          Pro
        </Button>
      </UpgradeDialog>
    );
  }
  return (
    <UpgradeDialog currentPlan={plan}>
      <Button
        size="sm"
        className="h-9 bg-gradient-to-r from-primary to-violet-600 px-2.5 shadow-sm shadow-primary/25 hover:opacity-95 sm:px-3.5"
        aria-label={DASHBOARD_TEXT.upgrade}
      >
        <Sparkles aria-hidden />
        <span className="hidden sm:inline">{DASHBOARD_TEXT.upgrade}</span>
      </Button>
    </UpgradeDialog>
  );
}
