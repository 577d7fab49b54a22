import type { Plugin } from 'esbuild';

export declare function withoutCopiedJoin(source: string): string;
export declare const ownPathJoin: Plugin;
