import { useNavigate, Link } from "react-router";
import { LogOut, Settings, ShieldCheck } from "lucide-react";
import { DASHBOARD_SHELL_TEXT, DASHBOARD_TEXT } from "../../../common/texts";
import { useSession } from "../../lib/session";
import { Avatar, AvatarFallback, AvatarImage } from "../ui/Avatar";
import { Menu, MenuContent, MenuItem, MenuLabel, MenuSeparator, MenuTrigger } from "../ui/Menu";
import { initialFor } from "./userDisplay";

export function UserMenu({ name, email, avatarUrl }: { name: string; email: string; avatarUrl: string | null }) {
  const session = useSession();
  const navigate = useNavigate();
  const initial = initialFor(name, email);

  async function logout() {
    try {
      await session.signOut();
    } finally {
      void navigate("/auth/login", { replace: true });
    }
  }

  return (
    <Menu>
      <MenuTrigger
        className="cursor-pointer rounded-full outline-offset-2 transition-shadow hover:ring-2 hover:ring-border focus-visible:outline-2 focus-visible:outline-ring"
        aria-label={DASHBOARD_SHELL_TEXT.accountMenu}
      >
        <Avatar className="size-9">
          {avatarUrl && <AvatarImage src={avatarUrl} alt="" data-testid="avatar-image" />}
          <AvatarFallback data-testid="avatar-initial" delayMs={avatarUrl ? 400 : 0}>
            {initial}
          </AvatarFallback>
        </Avatar>
      </MenuTrigger>
      <MenuContent className="w-64">
        <MenuLabel className="flex items-center gap-3">
          <Avatar className="size-9">
            {avatarUrl && <AvatarImage src={avatarUrl} alt="" />}
            <AvatarFallback>{initial}</AvatarFallback>
          </Avatar>
          <div className="min-w-0">
            {name && <p className="truncate text-sm font-medium">{name}</p>}
            <p className="truncate text-xs font-normal text-muted-foreground">{email}</p>
          </div>
        </MenuLabel>
        <MenuSeparator />
        <MenuItem asChild>
          <Link to="/dashboard/settings">
            <Settings aria-hidden />
            {DASHBOARD_TEXT.nav.settings}
          </Link>
        </MenuItem>
        {session.account?.isAdmin && (
          <MenuItem asChild>
            <Link to="/dashboard/admin">
              <ShieldCheck aria-hidden />
              {DASHBOARD_SHELL_TEXT.admin}
            </Link>
          </MenuItem>
        )}
        <MenuSeparator />
        <MenuItem onSelect={logout}>
          <LogOut aria-hidden />
          {DASHBOARD_TEXT.nav.logout}
        </MenuItem>
      </MenuContent>
    </Menu>
  );
}
