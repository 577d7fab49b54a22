import { describe, expect, it } from 'vitest';
import { scrubHostPaths } from '../../../../src/core/sandbox/scrubError';

describe('scrubHostPaths', () => {
  it('makes paths inside the vault vault-relative', () => {
    const root = '/home/ada/My Vault';
    expect(scrubHostPaths("ENOENT: no such file or directory, open '/home/ada/My Vault/Notes/a b.md'", [root])).toBe(
      "ENOENT: no such file or directory, open 'Notes/a b.md'",
    );
    expect(scrubHostPaths("EACCES: permission denied, scandir '/home/ada/My Vault'", [`${root}/`])).toBe("EACCES: permission denied, scandir '<vault>'");
    expect(scrubHostPaths('see file:///home/ada/My%20Vault/a.md', [root])).toBe('see a.md');
  });

  it('does not take a sibling folder whose name starts like the vault for the vault', () => {
    expect(scrubHostPaths("open '/home/ada/vault2/a.md'", ['/home/ada/vault'])).toBe("open '<host path>'");
  });

  it('makes Windows paths inside the vault relative, whatever the case of the drive letter', () => {
    expect(scrubHostPaths(String.raw`EPERM: operation not permitted, rename 'c:\Users\ada\Vault\a.md' -> 'C:\Users\ada\Vault\b.md'`, [String.raw`C:\Users\ada\Vault`])).toBe(
      "EPERM: operation not permitted, rename 'a.md' -> 'b.md'",
    );
  });

  it.each([
    ["EACCES: permission denied, open '/etc/shadow'", "EACCES: permission denied, open '<host path>'"],
    ['failed at /usr/lib/node_modules/x/index.js:10:3', 'failed at <host path>'],
    ['    at open (node:internal/fs/promises:639:25)', '    at open (<host path>)'],
    ['loaded from file:///opt/app/dist/worker.js:1:200', 'loaded from <host path>'],
    [String.raw`EBUSY: resource busy or locked, open 'C:\Program Files\Obsidian\x.md'`, "EBUSY: resource busy or locked, open '<host path>'"],
    [String.raw`cannot open C:\Users\ada\x.md now`, 'cannot open <host path> now'],
    [String.raw`share \\server\share\notes\a.md gone`, 'share <host path> gone'],
    [String.raw`quoted "\\server\share\my notes"`, 'quoted "<host path>"'],
  ])('replaces other absolute paths: %s', (message, expected) => {
    expect(scrubHostPaths(message, ['/home/ada/vault'])).toBe(expected);
  });

  it.each([
    'Notes/a.md does not exist',
    'the regular expression /a+/ is invalid',
    'see https://example.com/docs/page for more',
    'a ratio of 1/2 and and/or',
    '"Notes/b.md" already exists',
  ])('leaves text without host paths alone: %s', (message) => {
    expect(scrubHostPaths(message, ['/home/ada/vault'])).toBe(message);
  });
});
