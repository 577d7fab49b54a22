import type { BuildResult, Plugin } from 'esbuild';

export declare function loadChunks(hostRequire: (id: string) => unknown, hostModule: { exports: unknown }, sources: Record<string, () => void>, imports: Record<string, string[]>, entry: string, textOf: (held: () => void) => string): void;
export declare function packChunks(result: BuildResult, options: { entry: string; banner: string; minify: boolean }): Promise<{ code: string; chunks: { id: string; bytes: number; imports: string[] }[] }>;
export declare function commentFunction(text: string): string;
export declare function commentText(held: () => void): string;
export declare function chunkBoundaries(packages: string[]): Record<string, string>;
export declare function chunkedPlugin(options: { outfile: string; entry: string; banner: string; minify: boolean; report?: boolean }): Plugin;
