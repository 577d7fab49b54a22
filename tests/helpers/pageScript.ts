import esbuild from 'esbuild';

/** Bundles `entry` (an absolute path) as one classic script for a Chromium page. */
export async function buildPageScript(entry: string, options: Pick<esbuild.BuildOptions, 'alias' | 'plugins' | 'define'> = {}): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2021',
    logLevel: 'silent',
    ...options,
  });
  return result.outputFiles[0]?.text ?? '';
}
