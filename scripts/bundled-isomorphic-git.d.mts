import type { Plugin } from 'esbuild';

export declare function withoutCopiedJoin(source: string): string;
export declare function withBufferImport(source: string): string;
export declare const bundledIsomorphicGit: Plugin;
