// The plugin's `onload` in the browser test harness (the same page as the e2e tests: the real
// plugin over the test `obsidian` module in headless Chromium), against a plugin whose `onload`
// does nothing, loaded the same way in the same page. Run through plugin-onload.bench.mjs.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openHarness, ROOT } from '../e2e/harness/chatHarness';
export const WARMUP = 5;
export const ROUNDS = 40;

type Which = 'recursa' | 'sample' | 'empty';
/** An empty plugin's onload is below the page clock's resolution: it is timed over this many loads at once. */
export const EMPTY_BATCH = 2000;

/** Onload times in ms (`ROUNDS` each) of Recursa's plugin, the sample plugin, and an empty plugin (per load, over `EMPTY_BATCH` loads). */
export async function benchPluginOnload(): Promise<Record<Which, number[]>> {
  const vaultDir = await mkdtemp(join(tmpdir(), 'recursa-onload-'));
  await cp(join(ROOT, 'demo-vault'), vaultDir, { recursive: true });
  // The layout never becomes ready: what is timed is `onload` alone, as Obsidian starting up sees it.
  const harness = await openHarness({ vaultDir, deferLayout: true });
  const samples: Record<Which, number[]> = { recursa: [], sample: [], empty: [] };
  try {
    const time = (which: Which): Promise<number> =>
      harness.page.evaluate(async ([kind, times]) => (await window.recursaHarness?.timeOnload(kind, times)) ?? NaN, [which, which === 'empty' ? EMPTY_BATCH : 1] as const);
    for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
      // Alternate which goes first, so neither always runs on a warmer page.
      const order: Which[] = round % 2 === 0 ? ['recursa', 'sample', 'empty'] : ['empty', 'sample', 'recursa'];
      for (const which of order) {
        const ms = await time(which);
        if (round >= WARMUP) samples[which].push(ms);
      }
    }
    if (harness.pageErrors.length > 0) throw new Error(`The page reported errors: ${harness.pageErrors.join('; ')}`);
  } finally {
    await harness.close();
    await rm(vaultDir, { recursive: true, force: true });
  }
  return samples;
}
