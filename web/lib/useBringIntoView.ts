import { useEffect, useRef } from "react";

/**
 * A form's outcome shown above its fields: on a phone the sender is down at the button, so when
 * `shown` turns true the element is scrolled into view and takes focus (screen readers read it).
 */
export function useBringIntoView<E extends HTMLElement>(shown: boolean) {
  const ref = useRef<E>(null);
  useEffect(() => {
    if (!shown) return;
    ref.current?.scrollIntoView({ block: "nearest", behavior: "smooth" });
    ref.current?.focus({ preventScroll: true });
  }, [shown]);
  return ref;
}
