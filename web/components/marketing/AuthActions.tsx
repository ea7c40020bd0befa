import { Link } from "react-router";
import { LANDING_TEXT } from "../../../common/texts";
import { useSession } from "../../lib/session";
import { cn } from "../../lib/cn";
import { Button } from "../ui/Button";

/** Sign In and Sign Up for visitors, Dashboard for a signed-in user. */
export function AuthActions({ className, stacked = false }: { className?: string; stacked?: boolean }) {
  const { user, loading } = useSession();
  const size = stacked ? "lg" : "sm";
  const width = stacked ? "w-full" : undefined;
  if (user) {
    return (
      <div className={cn("flex items-center gap-2", className)}>
        <Button asChild size={size} className={cn(width, !stacked && "h-9 px-4")}>
          <Link to="/dashboard">{LANDING_TEXT.nav.dashboard}</Link>
        </Button>
      </div>
    );
  }
  return (
    // While the session check runs, the buttons keep their space but stay hidden, so the bar
    // does not jump when a signed-in user's Dashboard button replaces them.
    <div className={cn("flex items-center gap-2", stacked && "flex-col-reverse items-stretch", loading && "invisible", className)}>
      <Button asChild variant={stacked ? "outline" : "ghost"} size={size} className={cn(width, !stacked && "h-9 px-3")}>
        <Link to="/auth/login">{LANDING_TEXT.nav.signIn}</Link>
      </Button>
      <Button asChild size={size} className={cn(width, !stacked && "h-9 px-4")}>
        <Link to="/auth/signup">{LANDING_TEXT.nav.signUp}</Link>
      </Button>
    </div>
  );
}
