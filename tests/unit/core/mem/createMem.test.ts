import { describe, expect, it } from 'vitest';
import { createMem, DEFAULT_MEM_OPTIONS, MEM_METHOD_NAMES } from '../../../../src/core/mem';
import type { VaultPort } from '../../../../src/core/ports';
import { nodeRuntime, useMemFixture } from '../../../helpers/memHarness';

describe('createMem', () => {
  it('exposes exactly the documented mem methods', () => {
    expect([...MEM_METHOD_NAMES].sort()).toEqual(
      [
        'createDir',
        'deletePath',
        'fileExists',
        'getGraphRoot',
        'getTokenCount',
        'getTokenCountForPaths',
        'listFiles',
        'readFile',
        'rename',
        'replaceInFile',
        'updateFile',
        'writeFile',
        'gitLog',
        'gitDiff',
        'getChangedFiles',
        'commitChanges',
        'saveCheckpoint',
        'revertToLastCheckpoint',
        'discardChanges',
        'revertCommit',
        'getBacklinks',
        'getOutgoingLinks',
        'queryGraph',
        'searchGlobal',
        'search',
        'remember',
        'recall',
        'workingMemory',
      ].sort(),
    );
  });

  describe('the mem object', () => {
    const vault = useMemFixture(nodeRuntime);

    it('is frozen so guest code cannot swap a method', () => {
      expect(Object.isFrozen(vault.mem)).toBe(true);
      expect(Object.keys(vault.mem).sort()).toEqual([...MEM_METHOD_NAMES].sort());
    });
  });

  describe('when the platform fails unexpectedly', () => {
    it('turns the failure into an Io error tagged with the caller', async () => {
      const broken = new Proxy({} as VaultPort, {
        get: (_target, property) => (property === 'root' ? '/vault' : () => Promise.reject(new TypeError('disk on fire'))),
      });
      const { mem } = createMem(broken, DEFAULT_MEM_OPTIONS);
      await expect(mem.readFile('a.md')).rejects.toMatchObject({
        code: 'Io',
        data: { caller: 'mem.readFile', detail: 'disk on fire' },
      });
    });
  });

  it('serialises errors with code, message and data', async () => {
    const broken = { stat: () => Promise.resolve(null), readLink: () => Promise.resolve(null), root: '/v' } as unknown as VaultPort;
    const { mem } = createMem(broken, DEFAULT_MEM_OPTIONS);
    const error: unknown = await mem.readFile('gone.md').catch((e: unknown) => e);
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json).toMatchObject({ name: 'NotFoundError', code: 'NotFound', data: { path: 'gone.md', caller: 'mem.readFile' } });
    expect(structuredClone((error as { toJSON(): unknown }).toJSON())).toEqual(json);
  });
});
