import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import path from "node:path";

export default defineConfig({
  root: path.resolve(import.meta.dirname, "web"),
  plugins: [react(), tailwindcss()],
  // `npx vite` serves the dashboard with hot reload and forwards /api to a Berth server
  // (BERTH_DEV_API, default http://localhost:8080) started with BERTH_APP_URL set to Vite's URL.
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    strictPort: true,
    proxy: { "/api": { target: process.env.BERTH_DEV_API ?? "http://localhost:8080", changeOrigin: false } },
  },
  build: {
    outDir: path.resolve(import.meta.dirname, "dist/web"),
    emptyOutDir: true,
    sourcemap: false,
  },
});
