// The signed-in shell: sidebar (collapsible from 768 px, a slide-over below), header, and the
// page in <Outlet/>.
import { useCallback, useEffect, useState } from "react";
import { Outlet, useLocation } from "react-router";
import { Header } from "../../components/dashboard/Header";
import { SidebarNav } from "../../components/dashboard/Sidebar";
import { displayName } from "../../components/dashboard/userDisplay";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "../../components/ui/Sheet";
import { TooltipProvider } from "../../components/ui/Tooltip";
import { cn } from "../../lib/cn";
import { useSession } from "../../lib/session";

const COLLAPSED_KEY = "berth.sidebarCollapsed";
const DESKTOP = "(min-width: 768px)";

function useCollapsedSidebar(): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(() => {
    try {
      return window.localStorage.getItem(COLLAPSED_KEY) === "1";
    } catch {
      return false;
    }
  });
  const toggle = useCallback(() => {
    setCollapsed((value) => {
      try {
        window.localStorage.setItem(COLLAPSED_KEY, value ? "0" : "1");
      } catch {
        // Storage can be unavailable (private mode, quota); the toggle still works for this visit.
      }
      return !value;
    });
  }, []);
  return [collapsed, toggle];
}

export function DashboardLayout() {
  const { user, profile } = useSession();
  const location = useLocation();
  const [collapsed, toggleCollapsed] = useCollapsedSidebar();
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => setMenuOpen(false), [location.pathname]);

  // Widening the window past the breakpoint hides the menu button; don't leave the sheet open.
  useEffect(() => {
    const query = window.matchMedia(DESKTOP);
    const onChange = () => {
      if (query.matches) setMenuOpen(false);
    };
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);

  const name = displayName(profile?.full_name, user?.name);
  const email = user?.email ?? "";

  return (
    <TooltipProvider delayDuration={150}>
      <div className="flex min-h-dvh bg-muted/40">
        <aside
          id="dashboard-sidebar"
          className={cn(
            "sticky top-0 hidden h-dvh shrink-0 border-r bg-background transition-[width] duration-200 ease-out md:block",
            collapsed ? "w-[68px]" : "w-64",
          )}
        >
          <SidebarNav collapsed={collapsed} />
        </aside>
        <Sheet open={menuOpen} onOpenChange={setMenuOpen}>
          <SheetContent>
            <SheetTitle className="sr-only">Navigation</SheetTitle>
            <SheetDescription className="sr-only">Pages of your dashboard</SheetDescription>
            <SidebarNav onNavigate={() => setMenuOpen(false)} />
          </SheetContent>
        </Sheet>
        <div className="flex min-w-0 flex-1 flex-col">
          <Header
            name={name}
            email={email}
            avatarUrl={profile?.avatar_url ?? null}
            collapsed={collapsed}
            onToggleCollapsed={toggleCollapsed}
            onOpenMenu={() => setMenuOpen(true)}
          />
          <main className="flex-1 px-4 py-6 sm:px-6 lg:px-10 lg:py-10">
            <div className="mx-auto w-full max-w-6xl">
              <Outlet />
            </div>
          </main>
        </div>
      </div>
    </TooltipProvider>
  );
}
