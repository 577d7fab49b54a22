import type { BuildResult, Plugin } from 'esbuild';

export declare function loadChunks(hostRequire: (id: string) => unknown, hostModule: { exports: unknown }, sources: Record<string, string>, imports: Record<string, string[]>, entry: string): void;
export declare function packChunks(result: BuildResult, options: { entry: string; banner: string; minify: boolean }): Promise<{ code: string; chunks: { id: string; bytes: number; imports: string[] }[] }>;
export declare function stringLiteral(text: string): string;
export declare function chunkBoundaries(packages: string[]): Record<string, string>;
export declare function chunkedPlugin(options: { outfile: string; entry: string; banner: string; minify: boolean; report?: boolean }): Plugin;
