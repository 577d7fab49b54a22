import type { Plugin } from 'esbuild';

export declare const CL100K_RANKS_ID: 'recursa:cl100k-ranks';
export declare const CL100K_RANKS_FILE: string;
export declare function z85Encode(bytes: Uint8Array): string;
export declare function cl100kRanksSource(): Promise<string>;
export declare const inlineCl100kRanks: Plugin;
