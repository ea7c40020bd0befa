import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Toaster } from "sonner";
import { App } from "./App";
import { SessionProvider } from "./lib/session";
import { restoreSavedRedirect } from "./lib/redirect";
import { ApiError } from "./lib/api";
import "./styles.css";

restoreSavedRedirect(window.sessionStorage, window.history);

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A 4xx answer (404 'Site not found', 401) will not change on a second try; network and
      // server errors might.
      retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <SessionProvider>
          <App />
          {/* Below the sticky header (two rows on a phone), never over its controls. */}
          <Toaster richColors closeButton position="top-right" offset={{ top: 76, right: 24 }} mobileOffset={{ top: 112, left: 12, right: 12 }} />
        </SessionProvider>
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
