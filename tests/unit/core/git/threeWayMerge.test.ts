import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeLines } from '../../../../src/core/git/threeWayMerge';
import { useTempDir } from '../../../helpers/tempVault';

const lines = (...text: string[]): string => text.map((line) => `${line}\n`).join('');

describe('mergeLines', () => {
  const temp = useTempDir();

  describe('when the two changes touch different lines', () => {
    it('keeps both', () => {
      expect(mergeLines(lines('a', 'b', 'c', 'd', 'e'), lines('A', 'b', 'c', 'd', 'e'), lines('a', 'b', 'c', 'd', 'E'))).toBe(lines('A', 'b', 'c', 'd', 'E'));
    });

    it('keeps an insertion and a deletion apart', () => {
      expect(mergeLines(lines('a', 'b', 'c', 'd', 'e'), lines('a', 'new', 'b', 'c', 'd', 'e'), lines('a', 'b', 'c', 'e'))).toBe(lines('a', 'new', 'b', 'c', 'e'));
    });

    it('keeps a missing final newline and CRLF endings as they are', () => {
      expect(mergeLines('a\r\nb\r\nc\r\nd', 'A\r\nb\r\nc\r\nd', 'a\r\nb\r\nc\r\nD')).toBe('A\r\nb\r\nc\r\nD');
    });
  });

  describe('when the changes overlap or touch', () => {
    it('refuses', () => {
      expect(mergeLines(lines('a', 'b', 'c'), lines('a', 'B1', 'c'), lines('a', 'B2', 'c'))).toBeNull();
      expect(mergeLines(lines('a', 'b', 'c'), lines('A', 'b', 'c'), lines('a', 'B', 'c'))).toBeNull();
    });

    it('accepts the very same change on both sides', () => {
      expect(mergeLines(lines('a', 'b', 'c'), lines('a', 'B', 'c'), lines('a', 'B', 'c'))).toBe(lines('a', 'B', 'c'));
    });
  });

  it('agrees with git merge-file wherever it merges, and refuses wherever git reports a conflict', async () => {
    const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'epsilon', '', '- [ ] task');
    const edit = fc.array(fc.tuple(fc.nat(20), fc.option(word, { nil: null })), { maxLength: 4 });
    const apply = (base: string[], edits: [number, string | null][]): string[] => {
      const out = [...base];
      for (const [at, value] of edits) {
        const i = at % (out.length + 1);
        if (value === null) out.splice(i, 1);
        else out.splice(i, 0, value);
      }
      return out;
    };
    let run = 0;
    let merged = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(word, { minLength: 1, maxLength: 12 }), edit, edit, async (base, mine, theirs) => {
        const texts = [base, apply(base, mine), apply(base, theirs)].map((list) => lines(...list));
        const names = ['ours', 'base', 'theirs'].map((name) => join(temp.dir, `${name}-${run}`));
        run++;
        await writeFile(names[0] as string, texts[1] as string);
        await writeFile(names[1] as string, texts[0] as string);
        await writeFile(names[2] as string, texts[2] as string);
        const git = spawnSync('git', ['merge-file', '-p', ...names], { encoding: 'utf8' });
        const ours = mergeLines(texts[0] as string, texts[1] as string, texts[2] as string);
        if (git.status !== 0) expect(ours).toBeNull();
        else if (ours !== null) {
          expect(ours).toBe(git.stdout);
          merged++;
        }
      }),
      { numRuns: 150, seed: 16 },
    );
    // Being more careful than git (refusing changes that only touch) must not mean refusing everything.
    expect(merged).toBeGreaterThan(50);
  });
});
