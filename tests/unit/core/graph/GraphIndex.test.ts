import fc from 'fast-check';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../src/core/errors';
import { openVault } from '../../../../src/node/openVault';
import { useTempDir } from '../../../helpers/tempVault';

const FIXTURE: Record<string, string> = {
  'People/Dr. Aris Thorne.md': '---\naliases: [Aris]\ntags: [person]\naffiliation: "[[AI Research Institute]]"\n---\n# Dr. Aris Thorne\ntype:: person\nfield:: [[Symbolic Reasoning]]\nWorks with [[Ada Lovelace|Ada]] on #research/ai.\n',
  'Orgs/AI Research Institute.md': '# AI Research Institute\ntype:: organization\nSee ![[logo.png]] and [the charter](Docs/Charter%20v2.md#Goals).\n',
  'Docs/Charter v2.md': '# Charter\n## Goals\nLinks to [[Dr. Aris Thorne#Biography]] and [[Aris]].\n```\n[[Not A Link]]\n```\n',
  'Ada Lovelace.md': '# Ada Lovelace\n#person Wrote about [[Analytical Engine]] and [[Orgs/AI Research Institute]].\n',
  'Projects/Notes.md': '# Project notes\nsame name as [[Notes]] elsewhere; block ref [[Ada Lovelace#^quote]].\n',
  'Notes.md': '# Notes at the root\nNothing here but the word quaternion.\n',
  'logo.png': 'binary-ish',
};

async function seed(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

describe('the graph index through mem', () => {
  const temp = useTempDir();

  it('finds backlinks by every link form, resolved the way Obsidian resolves them', async () => {
    await seed(temp.dir, FIXTURE);
    const { mem, close } = await openVault(temp.dir, { watch: false, git: false });
    expect(await mem.getBacklinks('People/Dr. Aris Thorne.md')).toEqual(['Docs/Charter v2.md']);
    expect(await mem.getBacklinks('Orgs/AI Research Institute.md')).toEqual(['Ada Lovelace.md', 'People/Dr. Aris Thorne.md']);
    expect(await mem.getBacklinks('Docs/Charter v2.md')).toEqual(['Orgs/AI Research Institute.md']);
    expect(await mem.getBacklinks('logo.png')).toEqual(['Orgs/AI Research Institute.md']);
    expect(await mem.getBacklinks('Ada Lovelace.md')).toEqual(['People/Dr. Aris Thorne.md', 'Projects/Notes.md']);
    // Same name in two folders: the one beside the linking note wins.
    expect(await mem.getBacklinks('Projects/Notes.md')).toEqual([]);
    expect(await mem.getBacklinks('Notes.md')).toEqual([]);
    expect(await mem.getOutgoingLinks('Projects/Notes.md')).toEqual(['Ada Lovelace.md']);
    expect(await mem.getOutgoingLinks('People/Dr. Aris Thorne.md')).toEqual(['Ada Lovelace.md', 'Orgs/AI Research Institute.md', 'Symbolic Reasoning']);
    await expect(mem.getOutgoingLinks('Missing.md')).rejects.toMatchObject({ code: 'NotFound' });
    await close();
  });

  it("answers the seed's query and reports the matching lines", async () => {
    await seed(temp.dir, FIXTURE);
    const { mem, close } = await openVault(temp.dir, { watch: false, git: false });
    const result = await mem.queryGraph('(property affiliation:: AI Research Institute) AND (outgoing-link [[Symbolic Reasoning]])');
    expect(result.map((match) => match.filePath)).toEqual(['People/Dr. Aris Thorne.md']);
    expect(result[0]?.matches.join('\n')).toContain('field:: [[Symbolic Reasoning]]');
    expect((await mem.queryGraph('(tag #research) OR (tag #person)')).map((match) => match.filePath)).toEqual(['Ada Lovelace.md', 'People/Dr. Aris Thorne.md']);
    await expect(mem.queryGraph('(property type person')).rejects.toBeInstanceOf(InvalidArgumentError);
    await close();
  });

  it('searches full text with titles weighted above bodies, prefixes and typos', async () => {
    await seed(temp.dir, FIXTURE);
    const { mem, close } = await openVault(temp.dir, { watch: false, git: false });
    expect((await mem.searchGlobal('lovelace'))[0]).toBe('Ada Lovelace.md');
    expect(await mem.searchGlobal('quatern')).toEqual(['Notes.md']);
    expect(await mem.searchGlobal('quaterion')).toEqual(['Notes.md']);
    const hits = await mem.search('charter', { folder: 'Docs', limit: 5 });
    expect(hits.map((hit) => hit.path)).toEqual(['Docs/Charter v2.md']);
    expect(hits[0]?.snippet.toLowerCase()).toContain('charter');
    expect((await mem.search('thorne', { tags: ['person'] })).map((hit) => hit.path)).toContain('People/Dr. Aris Thorne.md');
    await expect(mem.search('x', { limit: 0 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await close();
  });

  it('finds words inside link aliases and code, and gives the same answer every time after edits', async () => {
    await seed(temp.dir, { 'Trip.md': 'Went on a [[Lisbon trip|harbour walk]] and ran `parseQuery()` there.\n', 'Other.md': 'harbour harbour harbour\n' });
    const { mem, close } = await openVault(temp.dir, { watch: false, git: false });
    expect(await mem.searchGlobal('harbour')).toContain('Trip.md');
    expect(await mem.searchGlobal('parsequery')).toEqual(['Trip.md']);
    for (let i = 0; i < 5; i++) await mem.writeFile('Other.md', `${'harbour '.repeat(5 - i)}\n`);
    const first = await mem.search('harbour');
    expect(await mem.search('harbour')).toEqual(first);
    expect(await mem.search('harbour')).toEqual(first);
    await close();
  });

  it('keeps a byte-order mark, so snippets and matched lines are where the note has them', async () => {
    await seed(temp.dir, { 'Marked.md': '\ufeffQuokka sightings start here.\nsecond line #wildlife\n', 'Plain.md': 'Quokka plain.\n' });
    const { mem, close } = await openVault(temp.dir, { watch: false, git: false });
    const hits = await mem.search('quokka', { limit: 5 });
    expect(hits.find((hit) => hit.path === 'Marked.md')?.snippet).toBe('Quokka sightings start here. second line #wildlife');
    expect(await mem.queryGraph('(content "sightings") OR (tag #wildlife)')).toEqual([{ filePath: 'Marked.md', matches: ['\ufeffQuokka sightings start here.', 'second line #wildlife'] }]);
    await close();
  });

  it('is current right after the agent writes, renames and deletes', async () => {
    await seed(temp.dir, FIXTURE);
    const { mem, close } = await openVault(temp.dir, { watch: false, git: false });
    await mem.writeFile('New.md', 'Mentions [[Symbolic Reasoning]] and [[Ada Lovelace]].\n');
    expect(await mem.getBacklinks('Ada Lovelace.md')).toContain('New.md');
    await mem.writeFile('Symbolic Reasoning.md', '# Symbolic Reasoning\n');
    expect(await mem.getBacklinks('Symbolic Reasoning.md')).toEqual(['New.md', 'People/Dr. Aris Thorne.md']);
    await mem.rename('Ada Lovelace.md', 'People/Ada Lovelace.md');
    expect(await mem.getBacklinks('People/Ada Lovelace.md')).toEqual(['New.md', 'People/Dr. Aris Thorne.md', 'Projects/Notes.md']);
    await mem.deletePath('New.md');
    expect(await mem.getBacklinks('People/Ada Lovelace.md')).not.toContain('New.md');
    expect(await mem.searchGlobal('mentions')).toEqual([]);
    await close();
  });

  it('agrees with a plain scan of the files after random edits', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `Note ${i}`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 11 }), fc.array(fc.integer({ min: 0, max: 11 }), { maxLength: 4 }), fc.boolean()), { minLength: 1, maxLength: 25 }),
        async (edits) => {
          await rm(temp.dir, { recursive: true, force: true });
          await mkdir(temp.dir, { recursive: true });
          const { mem, close } = await openVault(temp.dir, { watch: false, git: false });
          const contents = new Map<string, number[]>();
          for (const [note, links, remove] of edits) {
            const path = `${names[note]}.md`;
            if (remove && contents.has(path)) {
              await mem.deletePath(path);
              contents.delete(path);
            } else {
              await mem.writeFile(path, `# ${names[note]}\n${links.map((link) => `see [[${names[link]}]]`).join('\n')}\n`);
              contents.set(path, links);
            }
          }
          for (const target of names.map((name) => `${name}.md`)) {
            const expected = [...contents].filter(([path, links]) => path !== target && links.some((link) => `${names[link]}.md` === target)).map(([path]) => path).sort();
            expect(await mem.getBacklinks(target)).toEqual(expected);
          }
          await close();
        },
      ),
      { seed: 7, numRuns: 25 },
    );
  }, 60_000);
});
