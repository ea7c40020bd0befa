import type { Plugin } from "esbuild";
export declare function commonJsOnly(specifier: string): boolean;
export declare const requireCommonJs: Plugin;
