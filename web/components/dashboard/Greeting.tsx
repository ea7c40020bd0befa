import { useEffect, useState } from "react";
import { greetingFor } from "../../../common/texts";
import { msToNextMinute } from "./userDisplay";

/** The current time, updated at the start of every minute and when the tab becomes visible again. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const current = new Date();
      setNow(current);
      timer = setTimeout(tick, msToNextMinute(current));
    };
    timer = setTimeout(tick, msToNextMinute(new Date()));
    // Timers are throttled in background tabs and paused while a laptop sleeps.
    const onVisible = () => {
      if (document.visibilityState === "visible") setNow(new Date());
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);
  return now;
}

export function Greeting({ name }: { name: string }) {
  const now = useMinuteClock();
  const today = now.toLocaleDateString(undefined, {
    weekday: "long",
    month: "long",
    day: "numeric",
  });
  return (
    <div className="min-w-0">
      <p data-testid="greeting" className="truncate text-base font-semibold tracking-tight text-foreground sm:text-lg">
        {greetingFor(now, name)}
      </p>
      <p className="hidden truncate text-xs text-muted-foreground sm:block">{today}</p>
    </div>
  );
}
