export declare const SERVER_NODE_FLAGS: readonly string[];
export declare function withServerFlags(nodeOptions?: string): string;
