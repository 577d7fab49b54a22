import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { posixJoin } from '../../../../src/core/git/posixJoin';
import { seededRandom } from '../../../helpers/seededRandom';

describe('posixJoin', () => {
  it('joins the way isomorphic-git asks of it', () => {
    expect(posixJoin('/', '.git')).toBe('/.git');
    expect(posixJoin('/.git', 'objects/pack')).toBe('/.git/objects/pack');
    expect(posixJoin('/.git', 'refs/heads/main')).toBe('/.git/refs/heads/main');
    expect(posixJoin('', 'Notes/a.md')).toBe('Notes/a.md');
    expect(posixJoin()).toBe('.');
  });

  it('applies `..` so a ref name cannot climb out of the git folder it is joined to', () => {
    expect(posixJoin('/.git', 'refs/heads/../../../config')).toBe('/config');
    expect(posixJoin('/.git', '../../../../etc/passwd')).toBe('/etc/passwd');
    expect(posixJoin('a', '../../b')).toBe('../b');
  });

  it('counts a backslash as a separator, as the library does', () => {
    expect(posixJoin('/.git', 'refs\\heads\\main')).toBe('/.git/refs/heads/main');
    expect(posixJoin('a\\..\\b')).toBe('b');
  });

  it('agrees with Node’s POSIX path.join on random paths', () => {
    const random = seededRandom(22);
    const pieces = ['a', 'bc', '.', '..', '...', '.x', 'x.', '', '/', '//', 'ü'];
    const pick = (): string => pieces[Math.floor(random() * pieces.length)] as string;
    for (let round = 0; round < 20_000; round++) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
        Array.from({ length: Math.floor(random() * 5) }, pick).join(random() < 0.5 ? '/' : ''),
      );
      expect(posixJoin(...parts), JSON.stringify(parts)).toBe(posix.join(...parts));
    }
  });
});
