// Benchmarks the file half of `mem` (the built library, as users get it) against its anchor,
// plain Node fs doing the same work without the safety steps, in the same run.
//   npm run bench            prints a table of ratios and writes tests/bench/results/mem-files.json
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { countTokens, normalizeVaultPath, DEFAULT_PATH_POLICY, openVault } from '../../dist/recursa.mjs';
import { medianTime as median } from './benchTools.mjs';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

const NOTES = 500;
const note = (i) => `---\ntags: [bench, n${i}]\n---\n# Note ${i}\n\n${'Some prose about [[Note ' + (i + 1) + ']] and #topic. '.repeat(20)}\n`;


const dir = await mkdtemp(join(tmpdir(), 'recursa-bench-'));
const { mem, close } = await openVault(dir, { watch: false });
const rows = [];
const compare = (name, ours, anchor, anchorName) => rows.push({ name, ours, anchor, anchorName, ratio: ours / anchor });

try {
  compare(
    `write ${NOTES} notes`,
    await median((r) => Promise.all(Array.from({ length: NOTES }, (_, i) => mem.writeFile(`m${r}/n${i}.md`, note(i))))),
    await median(async (r) => {
      await Promise.all(
        Array.from({ length: NOTES }, async (_, i) => {
          const file = join(dir, `raw${r}`, `n${i}.md`);
          await mkdir(dirname(file), { recursive: true });
          await writeFile(file, note(i));
        }),
      );
    }),
    'fs.writeFile',
  );
  compare(
    `read ${NOTES} notes`,
    await median(() => Promise.all(Array.from({ length: NOTES }, (_, i) => mem.readFile(`m0/n${i}.md`)))),
    await median(() => Promise.all(Array.from({ length: NOTES }, (_, i) => readFile(join(dir, 'raw0', `n${i}.md`), 'utf8')))),
    'fs.readFile',
  );
  compare(
    `update ${NOTES} notes (CAS)`,
    await median(async (r) => {
      await Promise.all(
        Array.from({ length: NOTES }, async (_, i) => {
          const path = `m0/n${i}.md`;
          const before = await mem.readFile(path);
          await mem.updateFile(path, before, `${before}\nrun ${r}\n`);
        }),
      );
    }),
    await median(async (r) => {
      await Promise.all(
        Array.from({ length: NOTES }, async (_, i) => {
          const file = join(dir, 'raw0', `n${i}.md`);
          const before = await readFile(file, 'utf8');
          await writeFile(file, `${before}\nrun ${r}\n`);
        }),
      );
    }),
    'read + fs.writeFile',
  );
  const paths = Array.from({ length: 20000 }, (_, i) => `Projects/${i % 50}/./Sub//Note ${i}.md`);
  compare(
    'normalize 20k paths',
    await median(() => paths.forEach((p) => normalizeVaultPath(p, DEFAULT_PATH_POLICY))),
    await median(() => paths.forEach((p) => posix.normalize(p))),
    'path.posix.normalize',
  );
  // First use reads the rank table, once per process: one sample each.
  let started = performance.now();
  countTokens('warm up');
  const firstCountMs = performance.now() - started;
  started = performance.now();
  const reference = new Tiktoken(cl100kBase);
  compare('countTokens, first use (reads the cl100k_base table)', firstCountMs, performance.now() - started, 'new Tiktoken(cl100k_base) (js-tiktoken)');
  const text = note(1).repeat(200);
  if (countTokens(text) !== reference.encode(text, [], []).length) throw new Error('countTokens and js-tiktoken disagree');
  compare(
    `countTokens ${(text.length / 1024).toFixed(0)} KiB`,
    await median(() => countTokens(text)),
    await median(() => reference.encode(text, [], []).length),
    'js-tiktoken encode().length',
  );
} finally {
  await close();
  await rm(dir, { recursive: true, force: true });
}

console.log('| operation | ours (ms) | anchor | anchor (ms) | ours / anchor |');
console.log('|---|---:|---|---:|---:|');
for (const row of rows) {
  const anchor = row.anchor === null ? '—' : row.anchor.toFixed(1);
  const ratio = row.ratio === null ? '—' : `${row.ratio.toFixed(2)}×`;
  console.log(`| ${row.name} | ${row.ours.toFixed(1)} | ${row.anchorName} | ${anchor} | ${ratio} |`);
}
const out = join('tests', 'bench', 'results');
await mkdir(out, { recursive: true });
await writeFile(join(out, 'mem-files.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, rows }, null, 2)}\n`);
