// The edge resolves paths with the same rules as the publish check: they live in server/sites/.
export * from "../sites/routePath";
