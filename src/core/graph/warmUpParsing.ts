import { sleep } from '../util/sleep';
import { FullTextBuilder } from './fullTextIndex';
import { fullTextDocument } from './indexedVault';
import { parseNote } from './parseNote';

/** The notes it parses: frontmatter alone, then a body with each kind of thing the parser reads. */
export const WARM_UP_NOTES = {
  frontmatter: '---\naliases: [Warm]\ntags: [warm, up]\nstatus: draft\n---\n',
  body: '# Heading\n\n- [ ] Task #tag/nested [[Note|alias]] ![[Embed.png]] [link](Other%20note.md) `code` %%comment%% [key:: value]\nfield:: value\n> quote ^block\n\n```js\nconst x = 1;\n```\n',
};

/**
 * Runs the note parser, part by part, and the full-text scanner on small notes, each in a task of
 * its own: the engine compiles their code on first use, and on a phone the first note of a build,
 * parsed and indexed in one go, held the main thread for 60-120 ms. Nothing is kept.
 */
export async function warmUpParsing(): Promise<void> {
  parseNote(WARM_UP_NOTES.frontmatter);
  await sleep(0);
  const parsed = parseNote(WARM_UP_NOTES.body);
  await sleep(0);
  new FullTextBuilder().add(fullTextDocument('Warm up.md', parsed, WARM_UP_NOTES.body));
  await sleep(0);
}
