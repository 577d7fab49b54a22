import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The relative imports of every TypeScript file under `folder`, as `file → specifier`. */
async function importsUnder(folder: string): Promise<{ file: string; specifier: string }[]> {
  const found: { file: string; specifier: string }[] = [];
  for (const name of await readdir(folder, { recursive: true })) {
    if (!name.endsWith('.ts')) continue;
    const file = join(folder, name);
    for (const match of (await readFile(file, 'utf8')).matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)) {
      found.push({ file, specifier: match[1] ?? match[2] ?? '' });
    }
  }
  return found;
}

/** The entry points adapt one core; they never reach into each other. */
describe('the source layout', () => {
  it('keeps the Obsidian plugin and the Node entry points apart', async () => {
    const crossings = [
      ...(await importsUnder('src/obsidian')).filter(({ specifier }) => /(^|\/)node\//.test(specifier)),
      ...(await importsUnder('src/node')).filter(({ specifier }) => /(^|\/)obsidian\//.test(specifier) || specifier === 'obsidian'),
      ...(await importsUnder('src/desktop')).filter(({ specifier }) => /(^|\/)(node|obsidian)\//.test(specifier) || specifier === 'obsidian'),
      ...(await importsUnder('src/core')).filter(({ specifier }) => /(^|\/)(node|obsidian|desktop)\//.test(specifier) || specifier === 'obsidian' || specifier.startsWith('node:')),
    ];
    expect(crossings).toEqual([]);
  });

  it('lets code shared with Obsidian desktop name Node modules in types only (the plugin also runs on mobile)', async () => {
    const valueImports: string[] = [];
    for (const name of await readdir('src/desktop', { recursive: true })) {
      if (!name.endsWith('.ts')) continue;
      const text = await readFile(join('src/desktop', name), 'utf8');
      for (const match of text.matchAll(/^import\s+(?!type\b)[^;]*from\s+'(node:[^']+)'/gm)) valueImports.push(`${name}: ${match[1] as string}`);
    }
    expect(valueImports).toEqual([]);
  });
});
