/** The sandbox worker's built source, inlined by the build (esbuild.config.mjs) and by vitest. */
declare module 'recursa:sandbox-worker' {
  const source: string;
  export default source;
}
