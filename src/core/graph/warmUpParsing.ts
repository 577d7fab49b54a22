import { Lexer, parseDocument, Parser } from 'yaml';
import { sleep } from '../util/sleep';
import { FullTextBuilder } from './fullTextIndex';
import { fullTextDocument } from './indexedVault';
import { parseNote } from './parseNote';

/**
 * The notes it parses: simple frontmatter alone, frontmatter only the YAML library reads, then a
 * body with each kind of thing the parser reads.
 */
export const WARM_UP_NOTES = {
  frontmatter: '---\naliases: Warm\ntags:\n  - warm\n  - up\nstatus: draft\n---\n',
  yaml: '---\ntitle: "Warm: up"\nnested:\n  list: [a, {b: "[[Link]]"}]\nsummary: |\n  A block\n---\n',
  body: '# Heading\n\n- [ ] Task #tag/nested [[Note|alias]] ![[Embed.png]] [link](Other%20note.md) `code` %%comment%% [key:: value]\nfield:: value\n> quote ^block\n\n```js\nconst x = 1;\n```\n',
};

/**
 * YAML documents the library's composer takes one kind of node at a time: plain and quoted
 * scalars, flow and block collections, block scalars.
 */
const YAML_NODES = ['a: b', 'a: "b"', 'a: [b, c]', 'a: {b: c}', 'a:\n  - b', 'a:\n  b: c', 'a: |\n  b'];

/** What `warmUpParsing` runs, a task apiece. */
const STEPS: readonly (() => unknown)[] = [
  () => parseNote(WARM_UP_NOTES.frontmatter),
  () => Array.from(new Lexer().lex(WARM_UP_NOTES.yaml)),
  () => Array.from(new Parser().parse(WARM_UP_NOTES.yaml)),
  ...YAML_NODES.map((yaml) => () => parseDocument(yaml)),
  () => parseNote(WARM_UP_NOTES.yaml),
  () => parseNote(WARM_UP_NOTES.body),
  () => new FullTextBuilder().add(fullTextDocument('Warm up.md', parseNote(WARM_UP_NOTES.body), WARM_UP_NOTES.body)),
];

/**
 * Runs the note parser, part by part, and the full-text scanner on small notes, each step in a
 * task of its own: the engine compiles their code on first use, and on a phone the first note of
 * a build, parsed and indexed in one go, held the main thread for 60-120 ms, and the first note
 * whose frontmatter needs the YAML library 140 ms. Nothing is kept.
 */
export async function warmUpParsing(): Promise<void> {
  for (const step of STEPS) {
    step();
    await sleep(0);
  }
}
