import { useEffect, useState } from "react";

/** Re-renders every `ms` so "5 minutes ago" and "expires in 3 hours" stay true while a page is open. */
export function useNow(ms: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), ms);
    return () => window.clearInterval(timer);
  }, [ms]);
  return now;
}
