import { Bell, BellOff } from "lucide-react";
import { DASHBOARD_SHELL_TEXT as T } from "../../../common/texts";
import { Button } from "../ui/Button";
import { Popover, PopoverContent, PopoverTrigger } from "../ui/Popover";

/** The bell. There is no notification feed yet, so it says so rather than showing a fake count. */
export function NotificationsMenu() {
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="size-9 text-muted-foreground hover:text-foreground" aria-label={T.notificationsTitle}>
          <Bell className="size-[18px]" aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-label={T.notificationsTitle}>
        <div className="border-b px-4 py-3">
          <h2 className="text-sm font-semibold">{T.notificationsTitle}</h2>
        </div>
        <div className="flex flex-col items-center px-6 py-10 text-center">
          <span className="flex size-11 items-center justify-center rounded-full bg-muted text-muted-foreground">
            <BellOff className="size-5" aria-hidden />
          </span>
          <p className="mt-4 text-sm font-medium">{T.notificationsEmpty}</p>
          <p className="mt-1 text-sm leading-relaxed text-muted-foreground">{T.notificationsEmptyBody}</p>
        </div>
      </PopoverContent>
    </Popover>
  );
}
