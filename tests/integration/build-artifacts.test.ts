import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// `npm test` builds before it runs the tests, so these are the artifacts a user would install.
const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('the plugin bundle', () => {
  const main = readFileSync('main.js', 'utf8');

  it('is CommonJS that requires only what Obsidian provides', () => {
    expect(main).toMatch(/module\.exports/);
    const required = [...main.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1] ?? '');
    expect(required.length).toBeGreaterThan(0);
    for (const name of required) expect(name).toMatch(/^(obsidian|electron|@codemirror\/.+|@lezer\/.+)$/);
  });

  it('stays under 2.5 MiB with the tokenizer inside', () => {
    expect(statSync('main.js').size).toBeLessThan(2.5 * 1024 * 1024);
    expect(statSync('main.js').size).toBeGreaterThan(900 * 1024);
  });
});

describe('the release metadata', () => {
  const manifest = readJson('manifest.json');
  const versions = readJson('versions.json');
  const pkg = readJson('package.json');

  it('describes the plugin the way the community directory expects', () => {
    expect(manifest).toMatchObject({ id: 'recursa', name: 'Recursa', isDesktopOnly: false });
    expect(manifest.minAppVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(String(manifest.description)).toMatch(/^[A-Z].*\.$/);
    expect(String(manifest.description)).not.toMatch(/obsidian|plugin/i);
  });

  it('keeps manifest, versions and package.json in step', () => {
    expect(manifest.version).toBe(pkg.version);
    expect(versions[String(manifest.version)]).toBe(manifest.minAppVersion);
  });
});
