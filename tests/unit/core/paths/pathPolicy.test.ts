import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PathRefusedError, type PathRule } from '../../../../src/core/errors/PathRefusedError';
import {
  DEFAULT_PATH_POLICY,
  isProtectedPath,
  normalizeVaultPath,
  type PathPolicy,
} from '../../../../src/core/paths/pathPolicy';
import { thrownBy } from '../../../helpers/errors';

const policy = DEFAULT_PATH_POLICY;
const customConfig: PathPolicy = { configDir: '.config-obsidian', protectedFolders: [] };
const withPrivate: PathPolicy = { ...DEFAULT_PATH_POLICY, protectedFolders: ['Private', 'Work/Secret/'] };

interface HostileCase {
  title: string;
  input: unknown;
  rule: PathRule;
  /** What `data.path` holds: the input itself, or a type description when it is not a string. */
  path: string;
  policy: PathPolicy;
}

function hostile(input: string, rule: PathRule, casePolicy: PathPolicy = policy): HostileCase {
  const title = input.length > 60 ? `${JSON.stringify(input.slice(0, 20))}… (${input.length} chars)` : JSON.stringify(input);
  return { title, input, rule, path: input, policy: casePolicy };
}

function nonString(input: unknown, title: string, path: string): HostileCase {
  return { title, input, rule: 'not-a-string', path, policy };
}

const hostileCases: HostileCase[] = [
  // 1. type, size, emptiness
  nonString(undefined, 'undefined', '<undefined>'),
  nonString(null, 'null', '<null>'),
  nonString(42, '42', '<number>'),
  nonString({}, '{}', '<object>'),
  nonString(['a'], "['a']", '<array>'),
  hostile('', 'empty'),
  hostile('.', 'empty'),
  hostile('./', 'empty'),
  hostile('.\\.//', 'empty'),
  hostile(`notes/${'a'.repeat(1994)}.md`, 'too-long'),
  hostile('a'.repeat(1025), 'too-long'),
  hostile(`notes/${'a'.repeat(256)}`, 'too-long'),
  hostile(`notes/${'é'.repeat(128)}`, 'too-long'),
  // 2. invisible characters
  hostile('a\u0000b', 'control-character'),
  hostile('a\nb.md', 'control-character'),
  hostile('a\tb.md', 'control-character'),
  hostile('a\u007Fb.md', 'control-character'),
  hostile('a\u0085b.md', 'control-character'),
  hostile('a\u202Eb.md', 'control-character'),
  hostile('a\u200Fb.md', 'control-character'),
  hostile('a\u2067b.md', 'control-character'),
  hostile('\uFEFFnotes/a.md', 'control-character'),
  hostile('../\u0000', 'control-character'),
  hostile('a\uD800b.md', 'invalid-unicode'),
  hostile('a\uDC00b.md', 'invalid-unicode'),
  // 3. places outside the vault
  hostile('/etc/passwd', 'absolute'),
  hostile('\\Windows\\win.ini', 'absolute'),
  hostile('/', 'absolute'),
  hostile('\\\\server\\share\\x', 'unc'),
  hostile('//server/share', 'unc'),
  hostile('\\\\?\\C:\\x', 'unc'),
  hostile('\\\\.\\PhysicalDrive0', 'unc'),
  hostile('C:\\Windows', 'drive-letter'),
  hostile('c:x', 'drive-letter'),
  hostile('C:', 'drive-letter'),
  hostile('a:b', 'drive-letter'),
  hostile('file:///etc/passwd', 'url'),
  hostile('app://obsidian.md/index.html', 'url'),
  hostile('http://example.com/x', 'url'),
  // 5. traversal in any spelling
  hostile('../x', 'traversal'),
  hostile('a/../../x', 'traversal'),
  hostile('a/../b', 'traversal'),
  hostile('..\\x', 'traversal'),
  hostile('a\\..\\b', 'traversal'),
  hostile('..', 'traversal'),
  hostile('.../x', 'traversal'),
  hostile('.. /x', 'traversal'),
  hostile('%2e%2e/x', 'traversal'),
  hostile('.%2E/x', 'traversal'),
  hostile('%2e./x', 'traversal'),
  hostile('%252e%252e/x', 'traversal'),
  hostile('a%2f..%2fb', 'traversal'),
  hostile('．．/x', 'traversal'),
  hostile('\u2024\u2024/x', 'traversal'),
  hostile('\u2025/x', 'traversal'),
  hostile('%EF%BC%8E%EF%BC%8E/x', 'traversal'),
  hostile('.git/../x', 'traversal'),
  // 6. protected folders
  hostile('.git', 'protected-folder'),
  hostile('.git/config', 'protected-folder'),
  hostile('.GIT/HEAD', 'protected-folder'),
  hostile('sub/.git/hooks/pre-commit', 'protected-folder'),
  hostile('.git./config', 'protected-folder'),
  hostile('.git /x', 'protected-folder'),
  hostile('.GIT /x', 'protected-folder'),
  hostile('%2egit/config', 'protected-folder'),
  hostile('．git/config', 'protected-folder'),
  hostile('.g\u200Cit/config', 'protected-folder'),
  hostile('GIT~1/config', 'protected-folder'),
  hostile('.git::$INDEX_ALLOCATION/config', 'protected-folder'),
  hostile(`.obsidian/plugins/recursa/data.json`, 'protected-folder'),
  hostile(`.OBSIDIAN/app.json`, 'protected-folder'),
  hostile('.trash/x', 'protected-folder'),
  hostile('notes/.Trash/x.md', 'protected-folder'),
  hostile('.Trash-1000/files/x.md', 'protected-folder'),
  hostile('USB/.trash-0/x.md', 'protected-folder'),
  hostile('.Trashes/501/x.md', 'protected-folder'),
  hostile('$RECYCLE.BIN/S-1-5-21/x.md', 'protected-folder'),
  hostile('$recycle.bin', 'protected-folder'),
  hostile('.config-obsidian/app.json', 'protected-folder', customConfig),
  hostile('private/x.md', 'protected-folder', withPrivate),
  hostile('Private', 'protected-folder', withPrivate),
  hostile('work/secret/plan.md', 'protected-folder', withPrivate),
  // 7. characters Obsidian forbids
  hostile('a*b.md', 'forbidden-character'),
  hostile('a?b', 'forbidden-character'),
  hostile('ab:c', 'forbidden-character'),
  hostile('notes/a:b.md', 'forbidden-character'),
  hostile('a|b', 'forbidden-character'),
  hostile('a<b', 'forbidden-character'),
  hostile('a>b', 'forbidden-character'),
  hostile('say "hi".md', 'forbidden-character'),
  hostile('./C:/x', 'forbidden-character'),
  // 8. Windows device names
  hostile('CON', 'reserved-name'),
  hostile('con.md', 'reserved-name'),
  hostile('notes/LPT1.txt', 'reserved-name'),
  hostile('nul.tar.gz', 'reserved-name'),
  hostile('Aux /x', 'reserved-name'),
  hostile('COM\u00B9.md', 'reserved-name'),
  hostile('CONOUT$', 'reserved-name'),
  // 9. names Windows would rename
  hostile('x.', 'trailing-dot-or-space'),
  hostile('x ', 'trailing-dot-or-space'),
  hostile('notes. /a.md', 'trailing-dot-or-space'),
  hostile('notes/a.md ', 'trailing-dot-or-space'),
];

const acceptedCases: Array<[input: string, expected: string]> = [
  ['notes/a.md', 'notes/a.md'],
  ['./notes//a.md', 'notes/a.md'],
  ['notes\\a.md', 'notes/a.md'],
  ['notes/./a.md', 'notes/a.md'],
  ['notes/a.md/', 'notes/a.md'],
  ['.\\notes\\\\a.md', 'notes/a.md'],
  ['cafe\u0301.md', 'caf\u00E9.md'],
  ['.gitignore', '.gitignore'],
  ['.gitattributes', '.gitattributes'],
  ['.github/workflows/x.yml', '.github/workflows/x.yml'],
  ['.obsidian-notes.md', '.obsidian-notes.md'],
  ['Daily/2026-11-21.md', 'Daily/2026-11-21.md'],
  ['日本語/ノート.md', '日本語/ノート.md'],
  ['🧠 ideas/👨‍👩‍👧 family.md', '🧠 ideas/👨‍👩‍👧 family.md'],
  ['My notes/Meeting #3 [draft] ^ref.md', 'My notes/Meeting #3 [draft] ^ref.md'],
  ['.trash-can/x.md', '.trash-can/x.md'],
  ['Privateer.md', 'Privateer.md'],
  ['console.md', 'console.md'],
  ['COM10.md', 'COM10.md'],
  ['100%.md', '100%.md'],
  ['a/%2e/b.md', 'a/%2e/b.md'],
  ['..notes.md', '..notes.md'],
  ['notes/.hidden.md', 'notes/.hidden.md'],
  ['ｘ：ｙ.md', 'ｘ：ｙ.md'],
  [`notes/${'a'.repeat(252)}.md`, `notes/${'a'.repeat(252)}.md`],
];

describe('normalizeVaultPath', () => {
  describe('when the input is hostile', () => {
    it(`has at least 40 cases (${hostileCases.length})`, () => {
      expect(hostileCases.length).toBeGreaterThanOrEqual(40);
    });

    it.each(hostileCases)('refuses $title with rule $rule', ({ input, rule, path, policy: casePolicy }) => {
      const error = thrownBy(() => normalizeVaultPath(input, casePolicy), PathRefusedError);
      expect(error.code).toBe('PathRefused');
      expect(error.data).toEqual({ path, rule });
    });
  });

  describe('when the input is an ordinary vault path', () => {
    it.each(acceptedCases)('accepts %j as %j', (input, expected) => {
      expect(normalizeVaultPath(input, policy)).toBe(expected);
    });

    it('returns a fixed point for every accepted case', () => {
      for (const [input] of acceptedCases) {
        const once = normalizeVaultPath(input, policy);
        expect(normalizeVaultPath(once, policy)).toBe(once);
      }
    });

    it('accepts a path of exactly 1024 characters', () => {
      const path = `${'a'.repeat(200)}/`.repeat(5) + 'b'.repeat(19);
      expect(path).toHaveLength(1024);
      expect(normalizeVaultPath(path, policy)).toBe(path);
    });
  });

  describe('when allowRoot is set', () => {
    it.each(['', '.', './', './/', '.\\'])('returns the root for %j', (input) => {
      expect(normalizeVaultPath(input, policy, { allowRoot: true })).toBe('');
    });

    it('still normalizes ordinary paths', () => {
      expect(normalizeVaultPath('./notes//a.md', policy, { allowRoot: true })).toBe('notes/a.md');
    });

    it('still refuses an absolute root', () => {
      const error = thrownBy(() => normalizeVaultPath('/', policy, { allowRoot: true }), PathRefusedError);
      expect(error.data).toEqual({ path: '/', rule: 'absolute' });
    });
  });

  describe('when several rules are broken', () => {
    it('names the first rule in the documented order', () => {
      expect(thrownBy(() => normalizeVaultPath('a*b/../x', policy), PathRefusedError).data.rule).toBe('traversal');
      expect(thrownBy(() => normalizeVaultPath('.git/CON', policy), PathRefusedError).data.rule).toBe('protected-folder');
      expect(thrownBy(() => normalizeVaultPath('/a\u0000', policy), PathRefusedError).data.rule).toBe('control-character');
      expect(thrownBy(() => normalizeVaultPath('CON.', policy), PathRefusedError).data.rule).toBe('reserved-name');
    });
  });

  describe('when the policy names a custom config folder', () => {
    it('no longer protects the default folder but protects the configured one at any depth', () => {
      expect(normalizeVaultPath(`.obsidian/app.json`, customConfig)).toBe(`.obsidian/app.json`);
      const error = thrownBy(() => normalizeVaultPath('sub/.CONFIG-OBSIDIAN/x', customConfig), PathRefusedError);
      expect(error.data).toEqual({ path: 'sub/.CONFIG-OBSIDIAN/x', rule: 'protected-folder' });
    });

    it('still protects .git and .trash', () => {
      expect(thrownBy(() => normalizeVaultPath('.git/x', customConfig), PathRefusedError).data.rule).toBe('protected-folder');
      expect(thrownBy(() => normalizeVaultPath('.trash/x', customConfig), PathRefusedError).data.rule).toBe('protected-folder');
    });
  });

  describe('when the policy lists protected folders', () => {
    it('matches them only from the vault root', () => {
      expect(normalizeVaultPath('notes/Private/x.md', withPrivate)).toBe('notes/Private/x.md');
      expect(normalizeVaultPath('Work/x.md', withPrivate)).toBe('Work/x.md');
      expect(normalizeVaultPath('Work/Secretive.md', withPrivate)).toBe('Work/Secretive.md');
    });

    it('ignores empty entries instead of protecting the whole vault', () => {
      const sloppy: PathPolicy = { ...DEFAULT_PATH_POLICY, protectedFolders: ['', '/', './'] };
      expect(normalizeVaultPath('notes/a.md', sloppy)).toBe('notes/a.md');
    });
  });

  describe('when refusing', () => {
    it('says which path and which rule in the message', () => {
      const error = thrownBy(() => normalizeVaultPath('../secrets.md', policy), PathRefusedError);
      expect(error.message).toContain('../secrets.md');
      expect(error.message).toContain('traversal');
    });

    it('serializes code and data for the trip across the worker boundary', () => {
      const error = thrownBy(() => normalizeVaultPath('.git/config', policy), PathRefusedError);
      expect(structuredClone(error.toJSON())).toMatchObject({
        code: 'PathRefused',
        data: { path: '.git/config', rule: 'protected-folder' },
      });
    });
  });

  describe('when given generated input', () => {
    const hostileAlphabet = ['.', '/', '\\', '%', '2', 'e', 'E', ':', 'a', 'g', 'i', 't', 'C', ' ', '\u0000', '．'];
    const hostilePath = fc.string({ unit: fc.constantFrom(...hostileAlphabet), maxLength: 24 });
    const protectedNames = new Set(['.git', `.obsidian`, '.trash']);

    /** The invariants every accepted path must keep; returns the first one broken, if any. */
    function brokenInvariant(result: string): string | undefined {
      if (result.startsWith('/')) return 'leading slash';
      if (result.includes('\\')) return 'backslash';
      const segments = result.split('/');
      if (segments.some((segment) => segment === '')) return 'empty segment';
      if (segments.some((segment) => segment === '..')) return '.. segment';
      if (segments.some((segment) => protectedNames.has(segment.toLowerCase()))) return 'protected segment';
      if (normalizeVaultPath(result, policy) !== result) return 'not a fixed point';
      if (isProtectedPath(result, policy)) return 'isProtectedPath disagrees';
      return undefined;
    }

    it('either refuses with PathRefusedError or returns a safe fixed point', () => {
      fc.assert(
        fc.property(hostilePath, (input) => {
          let result: string;
          try {
            result = normalizeVaultPath(input, policy);
          } catch (error) {
            return error instanceof PathRefusedError && error.code === 'PathRefused';
          }
          expect(brokenInvariant(result)).toBeUndefined();
          return true;
        }),
        { numRuns: 5000 },
      );
    });

    it('never throws anything but PathRefusedError on arbitrary Unicode', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (input) => {
          try {
            const result = normalizeVaultPath(input, policy);
            expect(brokenInvariant(result)).toBeUndefined();
          } catch (error) {
            expect(error).toBeInstanceOf(PathRefusedError);
          }
        }),
        { numRuns: 2000 },
      );
    });

    it('accepts plain names unchanged', () => {
      const name = fc
        .string({ unit: fc.constantFrom(...'abcxyz019_- #[]^é日'), minLength: 1, maxLength: 12 })
        .filter((segment) => !segment.endsWith(' '));
      fc.assert(
        fc.property(fc.array(name, { minLength: 1, maxLength: 5 }), (segments) => {
          const path = segments.join('/');
          expect(normalizeVaultPath(path, policy)).toBe(path);
        }),
        { numRuns: 2000 },
      );
    });
  });
});

describe('isProtectedPath', () => {
  describe('when the path is inside a built-in protected folder', () => {
    it.each(['.git', '.git/config', 'sub/.git/hooks/pre-commit', '.GIT', '.trash/old.md', `.obsidian/app.json`, 'a/.Obsidian'])(
      'returns true for %j',
      (path) => {
        expect(isProtectedPath(path, policy)).toBe(true);
      },
    );
  });

  describe('when the path only resembles a protected folder', () => {
    it.each(['', '.gitignore', '.github/workflows/x.yml', '.gitattributes', '.obsidian-notes.md', 'notes/git/x.md', 'trash.md'])(
      'returns false for %j',
      (path) => {
        expect(isProtectedPath(path, policy)).toBe(false);
      },
    );
  });

  describe('when the policy lists protected folders', () => {
    it('returns true for the folder and anything inside it, case-insensitively', () => {
      expect(isProtectedPath('Private', withPrivate)).toBe(true);
      expect(isProtectedPath('private/x.md', withPrivate)).toBe(true);
      expect(isProtectedPath('WORK/secret/deep/x.md', withPrivate)).toBe(true);
    });

    it('returns false for look-alike names and for the folder deeper in the tree', () => {
      expect(isProtectedPath('Privateer.md', withPrivate)).toBe(false);
      expect(isProtectedPath('notes/Private/x.md', withPrivate)).toBe(false);
      expect(isProtectedPath('Work/Secretive.md', withPrivate)).toBe(false);
    });
  });

  describe('when the policy names a custom config folder', () => {
    it('protects that folder and not the default one', () => {
      expect(isProtectedPath('.config-obsidian/app.json', customConfig)).toBe(true);
      expect(isProtectedPath(`.obsidian/app.json`, customConfig)).toBe(false);
    });
  });

  describe('when used to filter a listing', () => {
    it('agrees with normalizeVaultPath on every accepted path', () => {
      const listing = ['notes/a.md', '.git/HEAD', '.gitignore', `.obsidian/app.json`, 'Private/x.md', 'Daily/x.md'];
      const visible = listing.filter((path) => !isProtectedPath(path, withPrivate));
      expect(visible).toEqual(['notes/a.md', '.gitignore', 'Daily/x.md']);
      for (const path of visible) expect(normalizeVaultPath(path, withPrivate)).toBe(path);
    });
  });
});
