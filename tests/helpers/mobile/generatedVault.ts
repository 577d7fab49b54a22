/** The benchmarks' vault generator (tests/bench/generateVault.mjs), typed for TypeScript callers. */
export interface GeneratedVault {
  /** The notes' vault paths. */
  files: string[];
  bytes: number;
}

type GenerateVault = (dir: string, options: { notes: number; seed: number; vocabulary?: 'basic' | 'english' }) => Promise<GeneratedVault>;

/** Writes `notes` realistic notes (and `.obsidian/app.json`) into `dir`; the same seed gives the same bytes. */
export async function generateVault(dir: string, notes: number, seed = 42): Promise<GeneratedVault> {
  // A JavaScript module without declarations, typed here.
  // @ts-expect-error -- generateVault.mjs has no declaration file
  const { generateVault: generate } = (await import('../../bench/generateVault.mjs')) as { generateVault: GenerateVault };
  return generate(dir, { notes, seed });
}
