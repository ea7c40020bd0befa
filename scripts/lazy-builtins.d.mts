import type { Plugin } from "esbuild";
export declare const LAZY_BUILTINS_BANNER: string;
export declare const lazyBuiltins: Plugin;
