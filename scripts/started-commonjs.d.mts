import type { Plugin } from 'esbuild';

export declare function startedCommonJs(packages: string[]): Plugin;
