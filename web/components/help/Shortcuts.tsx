// The keys the dashboard binds, and only those: each row names the component that binds it.
import { Fragment } from "react";

const isMac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);

const SHORTCUTS: { keys: string[][]; what: string }[] = [
  // SiteSearch in the header (wide screens, where the header shows the search box).
  { keys: [[isMac ? "⌘" : "Ctrl", "K"]], what: "Search your sites from any dashboard page (wide screens)" },
  // SiteSearch and this page's docs search.
  { keys: [["↑"], ["↓"]], what: "Move through search results" },
  { keys: [["Enter"]], what: "Open the highlighted result" },
  { keys: [["Esc"]], what: "Clear a search box, or close a dialog or menu" },
  // TimeSeriesChart (Analytics tab), with the chart focused.
  { keys: [["←"], ["→"], ["Home"], ["End"]], what: "Step through the days of an analytics chart" },
  // RangePicker (Analytics tab).
  { keys: [["←"], ["→"]], what: "Switch the analytics period" },
];

function Key({ children }: { children: string }) {
  return (
    <kbd className="inline-flex min-w-6 items-center justify-center rounded border bg-muted px-1.5 py-0.5 font-sans text-xs font-medium">
      {children}
    </kbd>
  );
}

export function Shortcuts() {
  return (
    <dl className="divide-y text-sm">
      {SHORTCUTS.map(({ keys, what }) => (
        <div key={what} className="flex flex-col gap-1.5 py-2.5 first:pt-0 last:pb-0">
          <dt className="order-2 text-muted-foreground">{what}</dt>
          <dd className="order-1 flex flex-wrap items-center gap-1">
            {keys.map((combo, i) => (
              <Fragment key={combo.join("+")}>
                {i > 0 && <span className="px-0.5 text-xs text-muted-foreground">/</span>}
                {combo.map((key, j) => (
                  <Fragment key={key}>
                    {j > 0 && <span className="text-xs text-muted-foreground">+</span>}
                    <Key>{key}</Key>
                  </Fragment>
                ))}
              </Fragment>
            ))}
          </dd>
        </div>
      ))}
    </dl>
  );
}
