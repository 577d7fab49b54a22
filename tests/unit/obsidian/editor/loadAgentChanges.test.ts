import { describe, expect, it } from 'vitest';
import { loadAgentChanges } from '../../../../src/obsidian/editor/loadAgentChanges';
import { useGitVault } from '../../../helpers/gitVault';
import { nodeRuntime } from '../../../helpers/memHarness';

describe('loadAgentChanges', () => {
  const vault = useGitVault(nodeRuntime);

  it('gives the marks of the agent\'s latest commit to the note, located in the editor\'s text', async () => {
    await vault.mem.writeFile('a.md', 'one\ntwo\n');
    const hash = await vault.mem.commitChanges('Write a\n\nTwo lines.');
    expect(await loadAgentChanges(vault.git, 'a.md', 'new first line\none\ntwo\n')).toEqual({
      hash,
      message: 'Write a\n\nTwo lines.',
      ranges: [{ from: 2, to: 3, kind: 'added' }],
    });
  });

  it('is null without history, and for a note the agent never changed', async () => {
    await vault.seed('b.md', 'b\n');
    expect(await loadAgentChanges(null, 'a.md', '')).toBeNull();
    expect(await loadAgentChanges(vault.git, 'b.md', 'b\n')).toBeNull();
  });
});
