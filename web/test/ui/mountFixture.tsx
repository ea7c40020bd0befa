// The page side of the ui components' browser tests (inBrowser.test.ts): a fixture renders its
// components with the app's toaster, records what they did, and hears from the test through DOM
// events, so neither side needs the other's types.
import { StrictMode, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import { Toaster } from "sonner";

const calls: string[] = [];

/** Notes that something ran; the test reads the list with `page.evaluate`. */
export function record(call: string): void {
  calls.push(call);
  document.documentElement.dataset.calls = JSON.stringify(calls);
}

/** Runs `listener` with the `detail` of each `name` event the test dispatches on document. */
export function onTestEvent(name: string, listener: (detail: unknown) => void): void {
  document.addEventListener(name, (event) => listener((event as CustomEvent).detail));
}

export function mountFixture(node: ReactNode): void {
  document.documentElement.dataset.calls = "[]";
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      {node}
      <Toaster />
    </StrictMode>,
  );
  requestAnimationFrame(() => {
    document.documentElement.dataset.fixture = "ready";
  });
}
