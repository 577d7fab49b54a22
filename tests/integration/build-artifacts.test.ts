import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { cl100kRanksSource } from '../../scripts/cl100k-ranks.mjs';
import { withBufferImport, withoutCopiedJoin } from '../../scripts/bundled-isomorphic-git.mjs';

// `npm test` builds before it runs the tests, so these are the artifacts a user would install.
const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('the plugin bundle', () => {
  const main = readFileSync('main.js', 'utf8');

  /** The loader's arguments in main.js: each chunk's text (read back from its function), each chunk's static imports, the entry. */
  const [sources, imports, entry] = ((): [Record<string, string>, Record<string, string[]>, string] => {
    const call = '})(require, module, ';
    const at = main.lastIndexOf(call);
    expect(at).toBeGreaterThan(0);
    const [held, imported, entryId, textOf] = runInContext(`[${main.slice(at + call.length, main.lastIndexOf(');'))}]`, createContext({})) as [Record<string, () => void>, Record<string, string[]>, string, (held: () => void) => string];
    return [Object.fromEntries(Object.entries(held).map(([id, chunk]) => [id, textOf(chunk)])), imported, entryId];
  })();

  it('is CommonJS that requires only what Obsidian provides, in every chunk', () => {
    // Load it the way Obsidian does and record every module it asks for. (Scanning the text
    // would also find `require(...)` inside strings, such as sucrase's code templates.) Each chunk
    // is evaluated in turn, by main.js with that chunk as its entry.
    const required = new Set<string>();
    // Whatever a provided module is asked for at load time (a base class, `StateEffect.define()`…) is another stand-in.
    const standIn = (): unknown =>
      new Proxy(function standInFunction() {}, {
        get: (_target, key) => (key === '__esModule' ? false : standIn()),
        apply: () => standIn(),
        construct: () => standIn() as object,
      });
    const fakeRequire = (name: string): unknown => {
      required.add(name);
      return standIn();
    };
    // The web APIs an Obsidian window offers that a bare context lacks.
    const web = { TextDecoder, TextEncoder, URL, Blob, crypto, performance, queueMicrotask, setTimeout, clearTimeout, setInterval, clearInterval, console, MessageChannel };
    const evaluate = (code: string): Record<string, unknown> => {
      const module = { exports: {} as Record<string, unknown> };
      runInContext(code, createContext({ ...web, module, exports: module.exports, require: fakeRequire }));
      return module.exports;
    };
    expect(typeof evaluate(main).default).toBe('function');
    expect(required).toContain('obsidian');
    const entryArgument = `, ${JSON.stringify(entry)}, function commentText(`;
    const at = main.lastIndexOf(entryArgument);
    expect(at).toBeGreaterThan(0);
    const after = at + `, ${JSON.stringify(entry)}`.length;
    for (const id of Object.keys(imports)) evaluate(`${main.slice(0, at)}, ${JSON.stringify(id)}${main.slice(after)}`);
    expect(required).toContain('@codemirror/view');
    for (const name of required) expect(name).toMatch(/^(obsidian|electron|@codemirror\/.+|@lezer\/.+)$/);
  });

  it('gives Obsidian at most 100 KB of code to run while it evaluates main.js (scripts/chunked-plugin.mjs)', () => {
    const evaluatedAtOnce = new Set<string>();
    const visit = (id: string): void => {
      if (evaluatedAtOnce.has(id)) return;
      evaluatedAtOnce.add(id);
      for (const imported of imports[id] ?? []) visit(imported);
    };
    visit(entry);
    const bytes = [...evaluatedAtOnce].reduce((sum, id) => sum + (sources[id]?.length ?? 0), 0);
    expect(bytes).toBeLessThanOrEqual(100 * 1024);
    // The core, the chat and the sandbox are not among them, nor the Buffer polyfill (isomorphic-git's alone).
    expect([...evaluatedAtOnce].join(' ')).not.toMatch(/VaultStack|pluginParts|prepareCode|browserSandboxWorker/);
    expect([...evaluatedAtOnce].map((id) => sources[id]).join('\n')).not.toContain('INSPECT_MAX_BYTES');
    expect(Object.values(sources).some((text) => text.includes('INSPECT_MAX_BYTES'))).toBe(true);
  });

  it('is ASCII, which the app reads into a one-byte string (half the memory of any other)', () => {
    expect(main).toMatch(/^[\t\n\r\x20-\x7e]*$/);
  });

  it('keeps every chunk of code at most 200 KB, so none takes long to evaluate on a phone', async () => {
    const ranks = (await cl100kRanksSource()).match(/z85: "([^"]+)"/)?.[1] ?? '';
    expect(ranks.length).toBeGreaterThan(500_000);
    const chunks = Object.entries(sources);
    expect(chunks.length).toBeGreaterThan(10);
    // The tokenizer's table is data: a string, quick to scan.
    for (const [id, text] of chunks) expect(text.replace(ranks, '').length, id).toBeLessThanOrEqual(200 * 1024);
    expect(chunks.filter(([, text]) => text.includes(ranks))).toHaveLength(1);
  });

  it('stays at most 2 MB with the tokenizer inside (scripts/check-bundle-size.mjs)', () => {
    expect(statSync('main.js').size).toBeLessThanOrEqual(2_000_000);
    expect(statSync('main.js').size).toBeGreaterThan(900 * 1024);
  });

  it('carries no code under a copyleft licence (scripts/bundled-isomorphic-git.mjs)', () => {
    const permissive = new Set(['MIT', '0BSD', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', 'Apache-2.0']);
    const declared = [...main.matchAll(/(?:SPDX-License-Identifier:|@license)\s+([\w.+-]+)/g)].map((found) => found[1]);
    for (const licence of declared) expect(permissive, `a bundled module declares ${licence}`).toContain(licence);
    expect(main).not.toMatch(/\b[AL]?GPL-\d|General Public License|@zenfs\/core/);
  });

  it('gives isomorphic-git Recursa\'s synchronous SHA-1 instead of sha.js and its helper packages', () => {
    expect(main).toContain('Sha1Stream: update after digest');
    // get-intrinsic's table of intrinsics, which sha.js pulled in through to-buffer.
    expect(main).not.toContain('%AsyncFromSyncIteratorPrototype%');
  });

  it('carries the tokenizer\'s rank table compressed, not as js-tiktoken ships it', () => {
    // A line of js-tiktoken's cl100k_base: its bpe_ranks are base64 tokens separated by spaces.
    expect(main).not.toContain('IQ== Ig== Iw== JA==');
    expect(main).not.toMatch(/bpe_ranks["']?\s*:\s*["'`]/);
  });
});

describe('isomorphic-git as the plugin bundles it', () => {
  const library = readFileSync(createRequire(import.meta.url).resolve('isomorphic-git').replace(/index\.cjs$/, 'index.js'), 'utf8');

  it('takes out exactly the copied path.join and imports Recursa\'s own in its place', () => {
    const bundled = withoutCopiedJoin(library);
    expect(library).toContain('@zenfs/core');
    expect(bundled).not.toMatch(/@zenfs|LGPL|function join\(|function normalizeString\(/);
    expect(bundled).toMatch(/^import \{ posixJoin as join \} from ".*posixJoin\.ts";\n/);
    expect(bundled.length).toBeGreaterThan(library.length - 6_000);
    expect(bundled).toContain('function isValidRef(');
  });

  it('gives the library the npm Buffer polyfill for the global it names, and stops if it declares its own', () => {
    expect(library).toMatch(/\bBuffer\.from\(/);
    expect(withBufferImport(library)).toMatch(/^import \{ Buffer \} from ".*src[\\/]+obsidian[\\/]+bufferPolyfill\.ts";\n/);
    expect(withBufferImport(library).endsWith(library)).toBe(true);
    expect(() => withBufferImport(`${library}\nclass Buffer {}\n`)).toThrow(/declares its own Buffer/);
  });

  it('stops the build when a release moves or changes the copy', () => {
    expect(() => withoutCopiedJoin(library.replace('@zenfs/core', '@zenfs/path'))).toThrow(/check the new release's licences/);
    expect(() => withoutCopiedJoin(library.replace('function join(...args) {', 'function join(base, ...args) {'))).toThrow(/not found/);
    expect(() => withoutCopiedJoin(`${library}\nexport const tidy = (p) => normalize(p);\n`)).toThrow(/helpers copied/);
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
