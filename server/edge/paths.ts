// Request paths are parsed once for the edge and the publish check: server/sites/requestPath.ts.
export * from "../sites/requestPath";
