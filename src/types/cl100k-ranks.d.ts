/**
 * js-tiktoken's cl100k_base rank table as its raw-deflated JSON in Z85, with that stream's length
 * in bytes (Z85 pads to four), inlined by the build (scripts/cl100k-ranks.mjs, used by
 * esbuild.config.mjs and vitest.config.ts).
 */
declare module 'recursa:cl100k-ranks' {
  const compressedRanks: { byteLength: number; z85: string };
  export default compressedRanks;
}
