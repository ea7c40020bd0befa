import { cn } from "../../lib/cn";

/** The faint grid and indigo glow behind page headers; purely decorative. */
export function Backdrop({ className }: { className?: string }) {
  return (
    <div
      aria-hidden
      className={cn(
        "pointer-events-none absolute inset-0 -z-10 overflow-hidden [mask-image:linear-gradient(to_bottom,black_55%,transparent)]",
        className,
      )}
    >
      <div className="absolute inset-0 bg-[linear-gradient(to_right,var(--color-border)_1px,transparent_1px),linear-gradient(to_bottom,var(--color-border)_1px,transparent_1px)] bg-[size:56px_56px] [mask-image:radial-gradient(ellipse_70%_60%_at_50%_0%,black_20%,transparent_75%)]" />
      <div className="absolute left-1/2 top-[-10rem] h-[28rem] w-[56rem] max-w-[140vw] -translate-x-1/2 rounded-full bg-primary/15 blur-3xl" />
    </div>
  );
}
