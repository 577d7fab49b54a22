/**
 * js-tiktoken's cl100k_base rank table as base64 of its raw-deflated JSON, inlined by the build
 * (scripts/cl100k-ranks.mjs, used by esbuild.config.mjs and vitest.config.ts).
 */
declare module 'recursa:cl100k-ranks' {
  const compressedRanks: string;
  export default compressedRanks;
}
