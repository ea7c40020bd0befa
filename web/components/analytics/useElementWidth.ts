import { useEffect, useState, type RefObject } from "react";

/**
 * The element's content width in CSS pixels, followed as it resizes. The chart draws in real
 * pixels (a scaled viewBox would stretch its text and dots); 0 until the first measurement.
 */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.floor(element.getBoundingClientRect().width));
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
