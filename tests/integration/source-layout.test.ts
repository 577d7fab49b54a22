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

  it('puts the stack together in one place: the entry points open their vault through VaultStack', async () => {
    const assembly = /\bGitService\.open\(|\bnew GraphIndex\(|\bcreateMem\(|\bnew Sandbox\(|\bcreateAgentService\(/g;
    const elsewhere: string[] = [];
    for (const folder of ['src/obsidian', 'src/node', 'src/desktop']) {
      for (const name of await readdir(folder, { recursive: true })) {
        if (!name.endsWith('.ts')) continue;
        for (const match of (await readFile(join(folder, name), 'utf8')).matchAll(assembly)) elsewhere.push(`${folder}/${name}: ${match[0]}`);
      }
    }
    const main = await readFile('src/main.ts', 'utf8');
    for (const match of main.matchAll(assembly)) elsewhere.push(`src/main.ts: ${match[0]}`);
    expect(elsewhere).toEqual([]);
    expect(main).toContain('VaultStack.open(');
    expect(await readFile('src/node/openVault.ts', 'utf8')).toContain('VaultStack.open(');
  });
});
