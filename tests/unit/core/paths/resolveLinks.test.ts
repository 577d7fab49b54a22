import { describe, expect, it } from 'vitest';
import { resolveLinks } from '../../../../src/core/paths/resolveLinks';
import type { VaultPort } from '../../../../src/core/ports';

/**
 * The resolution rules on link targets as a Windows desktop reports them, which this machine
 * cannot make: a port that answers `readLink` from a table. (Real links on a real folder are in
 * `tests/integration/hostile-links.test.ts`.)
 */
function portWithLinks(root: string, links: Record<string, string>): VaultPort {
  return { root, readLink: (path: string) => Promise.resolve(links[path] ?? null) } as unknown as VaultPort;
}

describe('resolveLinks', () => {
  const follow = { followLast: true };

  it('keeps a path without links as it is', async () => {
    expect(await resolveLinks(portWithLinks('/v', {}), 'a/b/c.md', follow)).toEqual({ kind: 'inside', path: 'a/b/c.md' });
  });

  it('resolves Windows targets: backslashes, drive letters in any case, the vault root itself', async () => {
    const port = portWithLinks('C:\\Users\\ada\\Vault', {
      'Sub/rel': '..\\Real',
      'Real/abs': 'c:\\users\\ADA\\vault\\Notes',
      root: 'C:\\Users\\ada\\Vault\\',
      out: 'D:\\Elsewhere',
      unc: '\\\\server\\share\\x',
    });
    expect(await resolveLinks(port, 'Sub/rel/x.md', follow)).toEqual({ kind: 'inside', path: 'Real/x.md' });
    expect(await resolveLinks(port, 'Real/abs/x.md', follow)).toEqual({ kind: 'inside', path: 'Notes/x.md' });
    expect(await resolveLinks(port, 'root/x.md', follow)).toEqual({ kind: 'inside', path: 'x.md' });
    expect(await resolveLinks(port, 'out/x.md', follow)).toEqual({ kind: 'outside' });
    expect(await resolveLinks(port, 'unc', follow)).toEqual({ kind: 'outside' });
  });

  it('compares POSIX roots with case, and never takes a sibling folder for the vault', async () => {
    const port = portWithLinks('/home/ada/vault', { a: '/home/ada/VAULT/x', b: '/home/ada/vault2/x', c: '/home/ada/vault/x' });
    expect(await resolveLinks(port, 'a', follow)).toEqual({ kind: 'outside' });
    expect(await resolveLinks(port, 'b', follow)).toEqual({ kind: 'outside' });
    expect(await resolveLinks(port, 'c', follow)).toEqual({ kind: 'inside', path: 'x' });
  });

  it('leaves a link at the last name alone unless asked to follow it', async () => {
    const port = portWithLinks('/v', { 'real/link': '/etc/passwd', dir: 'real' });
    expect(await resolveLinks(port, 'dir/link', { followLast: false })).toEqual({ kind: 'inside', path: 'real/link' });
    expect(await resolveLinks(port, 'dir/link', follow)).toEqual({ kind: 'outside' });
  });

  it('calls forty links in a row a loop', async () => {
    const chain = Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`l${i}`, `l${i + 1}`]));
    expect(await resolveLinks(portWithLinks('/v', chain), 'l0', follow)).toEqual({ kind: 'loop' });
    const shorter = Object.fromEntries(Array.from({ length: 39 }, (_, i) => [`l${i}`, `l${i + 1}`]));
    expect(await resolveLinks(portWithLinks('/v', shorter), 'l0', follow)).toEqual({ kind: 'inside', path: 'l39' });
  });
});
