// The fixtures' side of web/test/browser.ts: renders into #root with the app's toaster, then
// marks the page ready.
import { StrictMode, type ReactNode } from "react";
import { createRoot } from "react-dom/client";
import { Toaster } from "sonner";

export function mount(node: ReactNode): void {
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
