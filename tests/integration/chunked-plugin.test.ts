import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import esbuild, { type BuildResult } from 'esbuild';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBoundaries, chunkedPlugin, commentFunction, commentText, packChunks } from '../../scripts/chunked-plugin.mjs';
import { startedCommonJs } from '../../scripts/started-commonjs.mjs';
import { useTempDir } from '../helpers/tempVault';

// main.js as scripts/chunked-plugin.mjs builds it, from a small plugin made for the test: a real
// esbuild build with code splitting, loaded the way Obsidian loads a plugin.

const temp = useTempDir('recursa-chunks-');

/** A plugin whose modules log when they are evaluated: an entry, a part loaded on demand, and a shared package. */
function writeFixture(dir: string): void {
  const files: Record<string, string> = {
    'main.ts': `
      import { Plugin } from 'obsidian';
      import { settingsName } from './settings';
      log('main');
      export default class FixturePlugin extends Plugin {
        name = settingsName;
        async core() { const core = await import('./core'); log('core imported'); return core.coreValue(); }
        async tools() { return (await import('./tools')).toolValue; }
      }`,
    'settings.ts': `log('settings'); export const settingsName = 'fixture';`,
    'core.ts': `
      import started from 'fixture-commonjs';
      import { big } from './big';
      import { helper } from './helper';
      log('core');
      if (globalThis.failCoreOnce) { globalThis.failCoreOnce = false; throw new Error('core failed'); }
      export const coreValue = () => (started.started ? helper(big.length) : 0);`,
    'tools.ts': `import { helper } from './helper'; log('tools'); export const toolValue = helper(1);`,
    'helper.ts': `log('helper'); export const helper = (n: number) => n + 1;`,
    'big.ts': `log('big'); export const big = ${JSON.stringify("quotes ' \" ` and \\ backslashes\nand\u2028separators ".repeat(50))};`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  // A CommonJS package, whose body esbuild runs where it is first imported (scripts/started-commonjs.mjs).
  mkdirSync(join(dir, 'node_modules', 'fixture-commonjs'), { recursive: true });
  writeFileSync(join(dir, 'node_modules', 'fixture-commonjs', 'index.js'), `log('commonjs body'); module.exports = { started: true };`);
}

async function buildFixture(): Promise<string> {
  writeFixture(temp.dir);
  const outfile = join(temp.dir, 'built-main.js');
  await esbuild.build({
    entryPoints: { main: join(temp.dir, 'main.ts'), ...chunkBoundaries([join(temp.dir, 'big.ts'), 'fixture-commonjs']) },
    outdir: join(temp.dir, 'out'),
    bundle: true,
    format: 'esm',
    splitting: true,
    write: false,
    metafile: true,
    external: ['obsidian'],
    logLevel: 'silent',
    nodePaths: [join(temp.dir, 'node_modules')],
    plugins: [startedCommonJs(['fixture-commonjs']), chunkedPlugin({ outfile, entry: 'main.js', banner: '/* fixture */', minify: true })],
  });
  return readFileSync(outfile, 'utf8');
}

interface FixturePlugin {
  name: string;
  core(): Promise<number>;
  tools(): Promise<number>;
}

interface Loaded {
  /** A new instance of the class main.js exports. */
  plugin: () => FixturePlugin;
  log: string[];
  required: string[];
  context: Record<string, unknown>;
}

/** Evaluates main.js as Obsidian does: one script, given `require` and `module`. */
function load(code: string): Loaded {
  const log: string[] = [];
  const required: string[] = [];
  const module: { exports: { default?: unknown } } = { exports: {} };
  // Each task the loader waits for shows in the log, so the test sees where one task ends.
  class LoggedChannel {
    private readonly channel = new MessageChannel();
    readonly port1 = this.channel.port1;
    readonly port2 = {
      postMessage: (message: unknown) => {
        const deliver = this.port1.onmessage;
        this.port1.onmessage = (event) => {
          log.push('(task)');
          deliver?.call(this.port1, event);
        };
        this.channel.port2.postMessage(message);
      },
    };
  }
  class Plugin {}
  const context = createContext({
    log: (name: string) => log.push(name),
    MessageChannel: LoggedChannel,
    require: (id: string) => {
      required.push(id);
      if (id === 'obsidian') return { Plugin };
      throw new Error(`Cannot find module '${id}'`);
    },
    module,
  });
  runInContext(code, context);
  const exported = module.exports.default;
  if (typeof exported !== 'function') throw new Error('main.js exports no class');
  return { plugin: () => new (exported as new () => FixturePlugin)(), log, required, context };
}

describe('main.js in chunks (scripts/chunked-plugin.mjs)', () => {
  it('evaluates only the entry and what it imports statically while Obsidian evaluates main.js', async () => {
    const loaded = load(await buildFixture());
    expect(loaded.log).toEqual(['settings', 'main']);
    expect(loaded.required).toEqual(['obsidian']);
    expect(loaded.plugin().name).toBe('fixture');
  });

  it('evaluates a chunk reached through import() when it is first imported, each chunk it needs in a task of its own, and goes on in a task after', async () => {
    const loaded = load(await buildFixture());
    const plugin = loaded.plugin();
    const text = "quotes ' \" ` and \\ backslashes\nand\u2028separators ".repeat(50);
    expect(await plugin.core()).toBe(text.length + 1);
    const afterCore = loaded.log.slice(2);
    // `big` and `helper` are chunks of their own (a boundary, and shared with `tools`), and so is the
    // CommonJS package, started in its own task, not in `core`'s; then `core`, then what waited for
    // the import.
    expect(afterCore.filter((entry) => entry !== '(task)').sort()).toEqual(['big', 'commonjs body', 'core', 'core imported', 'helper']);
    expect(afterCore.slice(-2)).toEqual(['(task)', 'core imported']);
    expect(afterCore.at(-3)).toBe('core');
    for (let i = 0; i < afterCore.length; i += 2) expect(afterCore[i]).toBe('(task)');
    // What is evaluated is not evaluated again; `tools` needs only its own chunk.
    expect(await plugin.tools()).toBe(2);
    expect(loaded.log.slice(2 + afterCore.length)).toEqual(['(task)', 'tools', '(task)']);
    expect(await plugin.core()).toBe(text.length + 1);
    expect(loaded.log.filter((entry) => entry === 'helper')).toHaveLength(1);
  });

  it('rejects the import of a chunk that throws, and evaluates it again on the next import', async () => {
    const loaded = load(await buildFixture());
    const plugin = loaded.plugin();
    loaded.context.failCoreOnce = true;
    await expect(plugin.core()).rejects.toThrow('core failed');
    expect(await plugin.core()).toBeGreaterThan(1);
    expect(loaded.log.filter((entry) => entry === 'core')).toHaveLength(2);
    expect(loaded.log.filter((entry) => entry === 'big')).toHaveLength(1);
  });

  it('hands every require of what is not a chunk to Obsidian\'s', async () => {
    const code = await buildFixture();
    expect(code).toContain('require("obsidian")');
    expect(() => load(code.replace('require("obsidian")', 'require("electron")'))).toThrow("Cannot find module 'electron'");
  });
});

describe('packChunks', () => {
  /** A build result with the given chunks, as esbuild's metafile describes them. */
  const result = (chunks: Record<string, { text: string; imports?: string[]; dynamic?: string[] }>): BuildResult =>
    ({
      errors: [],
      warnings: [],
      outputFiles: Object.entries(chunks).map(([name, chunk]) => ({ path: join(process.cwd(), 'out', name), text: chunk.text, contents: new Uint8Array(), hash: '' })),
      metafile: {
        inputs: {},
        outputs: Object.fromEntries(
          Object.entries(chunks).map(([name, chunk]) => [
            `out/${name}`,
            {
              bytes: chunk.text.length,
              inputs: {},
              exports: [],
              imports: [...(chunk.imports ?? []).map((path) => ({ path: `out/${path}`, kind: 'import-statement' as const })), ...(chunk.dynamic ?? []).map((path) => ({ path: `out/${path}`, kind: 'dynamic-import' as const }))],
            },
          ]),
        ),
      },
      mangleCache: undefined,
    });

  it('refuses chunks that import each other in a cycle', async () => {
    const cyclic = result({
      'main.js': { text: 'import "./a.js";', imports: ['a.js'] },
      'a.js': { text: 'import "./b.js";', imports: ['b.js'] },
      'b.js': { text: 'import "./a.js";', imports: ['a.js'] },
    });
    await expect(packChunks(cyclic, { entry: 'main.js', banner: '', minify: false })).rejects.toThrow('cycle: ./main.js → ./a.js → ./b.js → ./a.js');
  });

  it('refuses an import() it cannot find written out, rather than leave one that would fetch a URL', async () => {
    const hidden = result({
      'main.js': { text: 'const name = "./a.js"; export const load = () => import(name);', dynamic: ['a.js'] },
      'a.js': { text: 'export const a = 1;' },
    });
    await expect(packChunks(hidden, { entry: 'main.js', banner: '', minify: false })).rejects.toThrow('is not written as import("./a.js")');
  });

  it('leaves out the chunks the entry never reaches', async () => {
    const packed = await packChunks(
      result({
        'main.js': { text: 'import { a } from "./a.js"; console.log(a);', imports: ['a.js'] },
        'a.js': { text: 'export const a = 1;' },
        'boundary-x.js': { text: 'export const unused = 2;' },
      }),
      { entry: 'main.js', banner: '/* b */', minify: false },
    );
    expect(packed.chunks.map((chunk) => chunk.id)).toEqual(['./a.js', './main.js']);
    expect(packed.code).not.toContain('unused');
    expect(packed.code.startsWith('/* b */\n')).toBe(true);
  });
});

describe('commentFunction', () => {
  const context = createContext({});
  /** The function as main.js carries it, evaluated, and its text read back as the loader reads it. */
  const roundTrip = (text: string): string => {
    const written = commentFunction(text);
    expect(written).toMatch(/^[\t\n\x20-\x7e]*$/);
    return commentText(runInContext(`(${written})`, context) as () => void);
  };

  it('is read back as exactly the text, whatever it holds', () => {
    const samples = ['', 'plain', '/* a comment */ x', '*/', '**/', '*~/', '~~', '~u0041', 'a*', '/', `\n\r\t\u2028 é 😀 \uD800`];
    for (const text of samples) expect(roundTrip(text)).toBe(text);
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('*', '/', '~', 'u', '0', 'a', '\r', 'é') })), (text) => roundTrip(text) === text),
      { numRuns: 2000 },
    );
  });

  it('leaves text with nothing to escape as it is, inside one comment', () => {
    const code = 'const a = "x" + `y` + \'z\'; // done\n/[/]/.test(a) ? 1 / 2 : 3';
    expect(commentFunction(code)).toBe(`function(){/*${code}*/}`);
  });
});
