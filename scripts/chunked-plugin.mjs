// Obsidian evaluates a plugin's main.js in one go on the main thread before it calls `onload`: the
// whole file is parsed, compiled and run in a single task. For a bundle of about 2 MB that task
// takes half a second on a phone. So the plugin is built in chunks (esbuild's code splitting, split
// at every `import()` and at the packages named as boundaries), and main.js carries them as text:
// evaluating main.js evaluates the entry chunk and what it imports statically; a chunk reached
// through `import()` is evaluated when it is first imported, it and each chunk it needs in a task
// of its own, and what waits for the import goes on in a task after those.
//
// Each chunk's text is the comment inside a function of its own (`commentFunction`), read back with
// `Function.prototype.toString`, which returns a function's source text exactly (ES2019). The
// engine still reads every byte of main.js while it compiles it, but it skips a comment about
// three times as fast as it reads a string literal into a string: at 4x CPU throttling in Chromium,
// 15 ms against 50 ms for the plugin's 2 MB.
import { writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import esbuild from 'esbuild';

/**
 * The loader at the top of main.js, written out with `toString`: it may use nothing outside itself.
 * Obsidian's `require` and `module` come in as arguments; `sources` maps each chunk's id
 * (`./name.js`) to the function that holds its CommonJS text, which `textOf` reads (`commentText`),
 * `imports` each id to the ids it imports statically.
 * @param {(id: string) => unknown} hostRequire
 * @param {{ exports: unknown }} hostModule
 * @param {Record<string, () => void>} sources
 * @param {Record<string, string[]>} imports
 * @param {string} entry
 * @param {(held: () => void) => string} textOf
 */
export function loadChunks(hostRequire, hostModule, sources, imports, entry, textOf) {
  /** @type {Map<string, { exports: Record<string, unknown> }>} */
  const evaluated = new Map();
  /** @type {Map<string, Promise<unknown>>} */
  const pending = new Map();

  /** @param {string} id */
  const evaluate = (id) => {
    const known = evaluated.get(id);
    if (known !== undefined) return known.exports;
    const chunk = { exports: {} };
    evaluated.set(id, chunk);
    try {
      // The chunks are the plugin's own code, built with this loader.
      new Function('require', 'module', 'exports', 'importChunk', `${textOf(sources[id])}\n//# sourceURL=recursa/${id.slice(2)}`)(requireChunk, chunk, chunk.exports, importChunk);
    } catch (error) {
      evaluated.delete(id);
      throw error;
    }
    // Nothing needs the text once it is evaluated.
    delete sources[id];
    return chunk.exports;
  };

  /** @param {string} id */
  const requireChunk = (id) => (Object.prototype.hasOwnProperty.call(imports, id) ? evaluate(id) : hostRequire(id));

  // After the tasks already queued. A message, unlike a timer, is not slowed down in a hidden window.
  const nextTask = () =>
    new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve(undefined);
      };
      channel.port2.postMessage(null);
    });

  /**
   * The chunk's static imports, deepest first, then the chunk.
   * @param {string} id
   * @param {string[]} order
   * @param {Set<string>} seen
   */
  const loadOrder = (id, order, seen) => {
    if (seen.has(id)) return order;
    seen.add(id);
    for (const imported of imports[id] ?? []) loadOrder(imported, order, seen);
    order.push(id);
    return order;
  };

  /**
   * `import()` of a chunk: each chunk it needs that is not evaluated yet, in a task of its own.
   * @param {string} id
   */
  const importChunk = (id) => {
    let loading = pending.get(id);
    if (loading === undefined) {
      loading = (async () => {
        for (const next of loadOrder(id, [], new Set())) {
          if (evaluated.has(next)) continue;
          await nextTask();
          evaluate(next);
        }
        // What waits for the import goes on in a task after the last chunk's.
        await nextTask();
        return evaluate(id);
      })();
      // A chunk that failed to load is tried again by the next import.
      loading.catch(() => pending.delete(id));
      pending.set(id, loading);
    }
    return loading;
  };

  hostModule.exports = evaluate(entry);
}

/**
 * main.js from the chunks of an esbuild build made with `format: 'esm'`, `splitting: true`,
 * `write: false` and a metafile.
 * @param {import('esbuild').BuildResult} result
 * @param {{ entry: string, banner: string, minify: boolean }} options  `entry`: the entry point's output name (`main.js`)
 * @returns {Promise<{ code: string, chunks: { id: string, bytes: number, imports: string[] }[] }>}
 */
export async function packChunks(result, { entry, banner, minify }) {
  const outputs = result.metafile?.outputs;
  if (outputs === undefined || result.outputFiles === undefined) throw new Error('packChunks needs a build with `metafile: true` and `write: false`.');
  const id = (path) => `./${basename(path)}`;
  /** @type {Map<string, { text: string, imports: string[], dynamic: string[] }>} */
  const chunks = new Map();
  for (const file of result.outputFiles) {
    if (!file.path.endsWith('.js')) continue;
    const meta = Object.entries(outputs).find(([path]) => resolve(path) === file.path)?.[1];
    if (meta === undefined) throw new Error(`no metafile entry for ${file.path}`);
    const internal = meta.imports.filter((imported) => imported.external !== true);
    chunks.set(id(file.path), {
      text: file.text,
      imports: internal.filter((imported) => imported.kind === 'import-statement').map((imported) => id(imported.path)),
      dynamic: internal.filter((imported) => imported.kind === 'dynamic-import').map((imported) => id(imported.path)),
    });
  }
  const entryId = `./${entry}`;
  if (!chunks.has(entryId)) throw new Error(`the build has no ${entry}`);

  // Only what the entry reaches travels (the boundary entry points themselves are not needed).
  const reached = [];
  const visit = (chunkId, path) => {
    if (path.includes(chunkId)) throw new Error(`chunks import each other in a cycle: ${[...path, chunkId].join(' → ')}`);
    if (reached.includes(chunkId)) return;
    const chunk = chunks.get(chunkId);
    if (chunk === undefined) throw new Error(`${path.at(-1)} imports ${chunkId}, which the build did not produce`);
    for (const imported of chunk.imports) visit(imported, [...path, chunkId]);
    reached.push(chunkId);
    for (const imported of chunk.dynamic) visit(imported, []);
  };
  visit(entryId, []);

  /** @type {Record<string, string>} */
  const sources = {};
  /** @type {Record<string, string[]>} */
  const imports = {};
  for (const chunkId of reached) {
    const chunk = chunks.get(chunkId);
    let text = chunk.text;
    for (const target of new Set(chunk.dynamic)) {
      const call = `import(${JSON.stringify(target)})`;
      if (!text.includes(call)) throw new Error(`${chunkId}: its import() of ${target} is not written as ${call}`);
      text = text.replaceAll(call, `importChunk(${JSON.stringify(target)})`);
    }
    const converted = await esbuild.transform(text, { format: 'cjs', target: 'es2021', minify, sourcefile: chunkId.slice(2) });
    if (/\bimport\(\s*["'`]\.\//.test(converted.code)) throw new Error(`${chunkId}: an import() of a chunk was left`);
    sources[chunkId] = converted.code;
    imports[chunkId] = chunk.imports;
  }
  const sourceTable = `{\n${Object.entries(sources).map(([chunkId, text]) => `${JSON.stringify(chunkId)}: ${commentFunction(text)}`).join(',\n')}\n}`;
  const code = `${banner}\n(${loadChunks.toString()})(require, module, ${sourceTable}, ${JSON.stringify(imports)}, ${JSON.stringify(entryId)}, ${commentText.toString()});\n`;
  const wide = code.match(/[^\t\n\r\x20-\x7e]/);
  if (wide !== null) throw new Error(`main.js must be ASCII; the banner or the loader has ${JSON.stringify(wide[0])} at ${wide.index ?? 0}`);
  return { code, chunks: reached.map((chunkId) => ({ id: chunkId, bytes: sources[chunkId].length, imports: imports[chunkId] })) };
}

/**
 * What main.js is made of: each chunk, its static imports and the three largest parts of it.
 * @param {string} outfile
 * @param {string} code
 * @param {{ id: string, bytes: number, imports: string[] }[]} chunks
 * @param {import('esbuild').Metafile} metafile
 */
function chunkReport(outfile, code, chunks, metafile) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
  const lines = [`${outfile}: ${kb(code.length)} in ${chunks.length} chunks`];
  for (const chunk of chunks) {
    const output = Object.entries(metafile.outputs).find(([path]) => basename(path) === chunk.id.slice(2))?.[1];
    const parts = new Map();
    for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
      const part = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? input.replace(/\/[^/]*$/, '');
      parts.set(part, (parts.get(part) ?? 0) + bytesInOutput);
    }
    const largest = [...parts].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([part, bytes]) => `${part} ${kb(bytes)}`);
    lines.push(`  ${chunk.id.slice(2).padEnd(36)} ${kb(chunk.bytes).padStart(7)}  ${largest.join(', ')}${chunk.imports.length > 0 ? `  ← imports ${chunk.imports.map((id) => id.slice(2)).join(', ')}` : ''}`);
  }
  return lines.join('\n');
}

const BOUNDARY = 'recursa-chunk-boundary:';

/**
 * Entry points that make each of `packages` a chunk of its own: a module reached from two entry
 * points is put in a chunk apart from both. The chunks of these entry points themselves are left
 * out of main.js, as nothing imports them. Give them with `chunkedPlugin`, which resolves them.
 * @param {string[]} packages
 * @returns {Record<string, string>}
 */
export function chunkBoundaries(packages) {
  return Object.fromEntries(packages.map((name) => [`boundary-${name.replace(/[^\w-]/g, '-')}`, `${BOUNDARY}${name}`]));
}

/**
 * A function expression whose body is a comment that holds `text`, in ASCII; `commentText` reads
 * the text back. Inside the comment, `~` is written `~~`, a slash after a star `~/` (so that the
 * comment cannot end early), and each character outside printable ASCII, tab and line feed `~u`
 * and its four hex digits: the browser reads an ASCII file into a one-byte string, quicker to
 * decode and scan and half the memory.
 * @param {string} text
 */
export function commentFunction(text) {
  const escaped = text.replace(/~|\*\/|[^\t\n\x20-\x7e]/g, (found) => (found === '~' ? '~~' : found === '*/' ? '*~/' : `~u${found.charCodeAt(0).toString(16).padStart(4, '0')}`));
  return `function(){/*${escaped}*/}`;
}

/**
 * The text a `commentFunction` holds, from the function. Written out in main.js with `toString`:
 * it may use nothing outside itself.
 * @param {() => void} held
 */
export function commentText(held) {
  const source = held.toString();
  const text = source.slice(source.indexOf('/*') + 2, source.lastIndexOf('*/'));
  // No regular expression: the engine interprets one on its first runs, slowly over a large chunk.
  let out = '';
  let from = 0;
  for (let escape = text.indexOf('~'); escape >= 0; escape = text.indexOf('~', from)) {
    const kind = text.charAt(escape + 1);
    out += text.slice(from, escape) + (kind === 'u' ? String.fromCharCode(parseInt(text.slice(escape + 2, escape + 6), 16)) : kind);
    from = escape + (kind === 'u' ? 6 : 2);
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * An esbuild plugin that writes the build's chunks as one main.js (`outfile`). The build must use
 * `format: 'esm'`, `splitting: true`, `write: false`, `metafile: true` and an `outdir`.
 * @param {{ outfile: string, entry: string, banner: string, minify: boolean, report?: boolean }} options
 * @returns {import('esbuild').Plugin}
 */
export function chunkedPlugin({ outfile, entry, banner, minify, report = false }) {
  return {
    name: 'chunked-plugin',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${BOUNDARY}`) }, (args) => ({ path: args.path.slice(BOUNDARY.length), namespace: 'chunk-boundary' }));
      build.onLoad({ filter: /.*/, namespace: 'chunk-boundary' }, (args) => ({ contents: `export * as boundary from ${JSON.stringify(args.path)};`, resolveDir: process.cwd(), loader: 'js' }));
      build.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        const { code, chunks } = await packChunks(result, { entry, banner, minify });
        await writeFile(outfile, code);
        if (report) console.log(chunkReport(outfile, code, chunks, result.metafile));
      });
    },
  };
}
