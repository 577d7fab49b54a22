import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VaultStack } from '../../src/core/stack/VaultStack';
import { sleep } from '../../src/core/util/sleep';
import { NodeVaultPort } from '../../src/node/NodeVaultPort';
import { gitCli } from '../helpers/gitCli';
import { useTempDir } from '../helpers/tempVault';

const CACHE = '.obsidian/plugins/recursa/graph-index.json';
const QUIET_MS = 400;

describe('saving the index after a build', () => {
  const temp = useTempDir();
  let stack: VaultStack | null = null;

  beforeEach(async () => {
    for (let i = 0; i < 20; i++) await writeFile(join(temp.dir, `Note ${i}.md`), `# Note ${i}\n\nLinks to [[Note ${(i + 1) % 20}]] #topic\n`);
  });

  afterEach(async () => {
    await stack?.close({ finishWork: false });
    stack = null;
  });

  const open = async (): Promise<VaultStack> => {
    const port = await NodeVaultPort.open(temp.dir, { watch: false });
    stack = await VaultStack.open(port, { session: { runId: 'test' }, graph: { cacheFile: CACHE }, saveIndexAfterQuietMs: QUIET_MS });
    await stack.git?.whenSnapshotDone();
    await stack.graph?.build();
    return stack;
  };
  const saved = (): boolean => existsSync(join(temp.dir, CACHE));

  it('waits until git has been idle a while, so it never competes with commits at work', async () => {
    const opened = await open();
    // Commits one after another, each well inside the quiet time of the one before.
    for (let i = 0; i < 6; i++) {
      await opened.mem.writeFile(`Work ${i}.md`, `Step ${i}\n`);
      await opened.mem.commitChanges(`Step ${i}`);
      expect(saved()).toBe(false);
      await sleep(QUIET_MS / 4);
    }
    expect(saved()).toBe(false);
    await expect.poll(saved, { timeout: QUIET_MS * 10 }).toBe(true);
    expect(gitCli(temp.dir, 'log', '--format=%s').trim().split('\n').slice(0, 2)).toEqual(['Step 5', 'Step 4']);
  });

  it('saves on close instead when the vault closes before a quiet moment, leaving no timer behind', async () => {
    const opened = await open();
    expect(saved()).toBe(false);
    const closing = Date.now();
    await opened.close();
    stack = null;
    expect(saved()).toBe(true);
    expect(Date.now() - closing).toBeLessThan(QUIET_MS * 5);
  });
});
