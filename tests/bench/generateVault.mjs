// A deterministic vault of realistic notes for benchmarks: the same `seed` and `notes` always give
// the same files, byte for byte (a seeded PRNG, never Math.random).
//   import { generateVault } from './generateVault.mjs';
//   const { files, bytes } = await generateVault('/tmp/vault', { notes: 10000, seed: 42 });
// Each note is 2–4 KB of markdown: YAML frontmatter (tags, aliases, dates), headings, paragraphs,
// task lists, and [[wikilinks]] to other generated notes (some with |alias, some with #heading),
// spread over 50 folders (some nested two levels). Plus `.obsidian/app.json`.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** 50 folders: 10 at the top, 30 one level down, 10 two levels down. */
export const FOLDERS = [
  'Inbox', 'Projects', 'Areas', 'Resources', 'Archive', 'People', 'Journal', 'Meetings', 'Reading', 'Ideas',
  'Projects/Alpha', 'Projects/Beta', 'Projects/Gamma', 'Projects/Delta', 'Projects/Website Redesign', 'Projects/Garden',
  'Areas/Health', 'Areas/Finance', 'Areas/Home', 'Areas/Career', 'Areas/Learning',
  'Resources/Programming', 'Resources/Design', 'Resources/Cooking', 'Resources/Travel', 'Resources/Music',
  'Archive/2021', 'Archive/2022', 'Archive/2023', 'People/Family', 'People/Colleagues',
  'Journal/2023', 'Journal/2024', 'Journal/2025', 'Meetings/Weekly', 'Meetings/Clients',
  'Reading/Books', 'Reading/Articles', 'Reading/Papers', 'Ideas/Writing',
  'Projects/Alpha/Research', 'Projects/Alpha/Specs', 'Projects/Beta/Research',
  'Resources/Programming/TypeScript', 'Resources/Programming/Rust', 'Resources/Programming/Git',
  'Reading/Books/Fiction', 'Reading/Books/Nonfiction', 'Areas/Learning/Languages', 'Archive/2022/Projects',
];

/** Every note has these sections in this order (a prefix of them), so `[[Note#Summary]]` resolves. */
const SECTIONS = ['Summary', 'Context', 'Notes', 'Open questions', 'Next steps', 'References', 'Log', 'Details'];

const WORDS = (
  'the a of and to in is that for on with as it be by this are from at or an was which not have can will ' +
  'system design memory garden project review draft outline research method result evidence question answer ' +
  'budget schedule meeting client server cache index commit branch merge history change file folder note link ' +
  'graph vault plugin agent model prompt context token search query ranking summary insight pattern habit ' +
  'sleep running recipe bread coffee travel train station museum library book chapter author argument theory ' +
  'experiment sample measure baseline target latency throughput storage network mobile desktop sync conflict ' +
  'release version feature issue bug test fixture contract policy path rule error message retry timeout ' +
  'weekly quarterly plan goal milestone estimate risk decision tradeoff option constraint assumption ' +
  'quickly carefully often rarely clearly mostly nearly simply early later again together instead already ' +
  'small large simple careful useful slow fast stable fragile obvious subtle practical rough final open'
).split(' ');
const TITLE_WORDS = (
  'Atlas Beacon Canvas Delta Ember Fable Harbor Island Juniper Kernel Lantern Meadow Nimbus Orbit Prism ' +
  'Quartz Ridge Summit Timber Umbra Vector Willow Zenith Anchor Bramble Cascade Drift Echo Falcon Grove ' +
  'Horizon Ivory Jasper Keystone Lumen Mosaic Nectar Onyx Pioneer Quill Raven Sable Tundra Ultra Velvet ' +
  'Wander Yarrow Zephyr Amber Basalt Cinder Dune Fern Glacier Heron Indigo'
).split(' ');
const TITLE_NOUNS = (
  'Notes Plan Review Ideas Research Overview Checklist Retrospective Proposal Reading Summary Journal ' +
  'Architecture Experiment Budget Roadmap Interview Recipe Trip Workshop Draft Questions Log Map'
).split(' ');
const TAGS = (
  'project reading idea meeting person health finance home career learning programming design cooking travel ' +
  'music archive draft todo review reference evergreen seedling research/paper research/method area/work area/life'
).split(' ');
const PEOPLE = 'Ada Grace Alan Barbara Edsger Donald Margaret Ken Linus Radia Tim Frances Niklaus Leslie Hedy'.split(' ');

/** sfc32: small, fast, and good enough for benchmark data; seeded by splitmix32. */
export function createRng(seed) {
  let state = seed >>> 0;
  const splitmix = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return {
    next,
    /** Integer in [min, max]. */
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const capitalize = (word) => word[0].toUpperCase() + word.slice(1);
const pad = (n) => String(n).padStart(2, '0');

/** A date (YYYY-MM-DD) `days` after 2021-01-01. */
function isoDate(days) {
  const date = new Date(Date.UTC(2021, 0, 1) + days * 86400000);
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** Where every note goes and what it is called, decided before any content so links can point forward. */
function planNotes(rng, count) {
  const used = new Set();
  const unique = (title) => {
    let name = title;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${title} ${n}`;
    used.add(name.toLowerCase());
    return name;
  };
  const plan = [];
  for (let i = 0; i < count; i++) {
    let folder = FOLDERS[i % FOLDERS.length]; // every folder gets its share
    let title;
    if (folder.startsWith('Journal')) {
      const year = folder === 'Journal' ? rng.int(2023, 2025) : Number(folder.slice(-4));
      folder = `Journal/${year}`;
      title = isoDate((year - 2021) * 365 + rng.int(0, 364));
    } else if (folder.startsWith('Meetings')) {
      title = `${isoDate(rng.int(700, 1800))} ${rng.pick(TITLE_WORDS)} sync with ${rng.pick(PEOPLE)}`;
    } else if (folder.startsWith('People')) {
      title = `${rng.pick(PEOPLE)} ${rng.pick(TITLE_WORDS)}`;
    } else {
      title = `${rng.pick(TITLE_WORDS)} ${rng.pick(TITLE_WORDS).toLowerCase()} ${rng.pick(TITLE_NOUNS).toLowerCase()}`;
    }
    const name = unique(title);
    plan.push({ folder, name, path: `${folder}/${name}.md` });
  }
  return plan;
}

function sentence(rng, plan, self) {
  const length = rng.int(8, 18);
  const words = [];
  for (let w = 0; w < length; w++) {
    const roll = rng.next();
    if (roll < 0.025) {
      const target = plan[rng.int(0, plan.length - 1)];
      if (target === self) continue;
      const kind = rng.next();
      if (kind < 0.6) words.push(`[[${target.name}]]`);
      else if (kind < 0.8) words.push(`[[${target.name}|${rng.pick(WORDS)} ${rng.pick(WORDS)}]]`);
      else words.push(`[[${target.name}#${rng.pick(SECTIONS.slice(0, 3))}]]`);
    } else if (roll < 0.035) words.push(`#${rng.pick(TAGS)}`);
    else if (roll < 0.045) words.push(`**${rng.pick(WORDS)}**`);
    else if (roll < 0.05) words.push(`\`${rng.pick(WORDS)}()\``);
    else words.push(rng.pick(WORDS));
  }
  return `${capitalize(words[0] ?? 'note')} ${words.slice(1).join(' ')}.`;
}

function paragraph(rng, plan, self) {
  const sentences = [];
  for (let s = rng.int(2, 5); s > 0; s--) sentences.push(sentence(rng, plan, self));
  return `${sentences.join(' ')}\n`;
}

function taskList(rng, plan, self) {
  const lines = [];
  for (let t = rng.int(2, 6); t > 0; t--) {
    const done = rng.chance(0.4) ? 'x' : ' ';
    const due = rng.chance(0.3) ? ` 📅 ${isoDate(rng.int(900, 1800))}` : '';
    lines.push(`- [${done}] ${sentence(rng, plan, self).slice(0, -1)}${due}`);
  }
  return `${lines.join('\n')}\n`;
}

function bulletList(rng, plan, self) {
  const lines = [];
  for (let t = rng.int(2, 5); t > 0; t--) {
    const target = plan[rng.int(0, plan.length - 1)];
    lines.push(rng.chance(0.5) && target !== self ? `- See [[${target.name}]]` : `- ${sentence(rng, plan, self)}`);
  }
  return `${lines.join('\n')}\n`;
}

function frontmatter(rng, note) {
  const created = rng.int(0, 1500);
  const tags = new Set();
  for (let t = rng.int(1, 4); t > 0; t--) tags.add(rng.pick(TAGS));
  const lines = ['---', `created: ${isoDate(created)}`, `updated: ${isoDate(created + rng.int(0, 300))}`, 'tags:'];
  for (const tag of tags) lines.push(`  - ${tag}`);
  if (rng.chance(0.6)) {
    lines.push('aliases:');
    for (let a = rng.int(1, 2); a > 0; a--) lines.push(`  - ${capitalize(rng.pick(WORDS))} ${rng.pick(TITLE_NOUNS).toLowerCase()} ${a}`);
  } else {
    lines.push('aliases: []');
  }
  if (rng.chance(0.5)) lines.push(`status: ${rng.pick(['active', 'done', 'waiting', 'someday'])}`);
  if (note.folder.startsWith('Reading')) lines.push(`author: "${rng.pick(PEOPLE)} ${rng.pick(TITLE_WORDS)}"`, `rating: ${rng.int(1, 5)}`);
  lines.push('---', '');
  return lines.join('\n');
}

const MIN_BYTES = 2048;
const MAX_BYTES = 4096;

/** One note: 2–4 KB (UTF-8) of frontmatter, an H1, then sections until the chosen size is reached. */
function noteText(rng, plan, self) {
  const target = rng.int(MIN_BYTES + 64, MAX_BYTES - 256);
  let text = `${frontmatter(rng, self)}# ${self.name}\n\n`;
  let size = Buffer.byteLength(text);
  for (let section = 0; size < target; section++) {
    const heading = section < SECTIONS.length ? SECTIONS[section] : `${SECTIONS[section % SECTIONS.length]} ${section}`;
    const roll = rng.next();
    const body = roll < 0.55 ? paragraph(rng, plan, self)
      : roll < 0.8 ? taskList(rng, plan, self)
        : `${paragraph(rng, plan, self)}\n${bulletList(rng, plan, self)}`;
    const block = `## ${heading}\n\n${body}\n`;
    const blockSize = Buffer.byteLength(block);
    if (size + blockSize > MAX_BYTES) {
      if (size >= MIN_BYTES) break;
      continue; // too big to fit: draw another block
    }
    text += block;
    size += blockSize;
  }
  return text;
}

/** Runs `task` over `items` with at most `limit` in flight. */
async function eachLimited(items, limit, task) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await task(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Writes a vault of `notes` notes into `dir` (created if missing; should be empty).
 * @returns the vault-relative paths of the notes (in generation order) and the total bytes written.
 */
export async function generateVault(dir, { notes, seed }) {
  if (!Number.isInteger(notes) || notes < 1) throw new Error(`notes must be a positive integer, got ${notes}`);
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  const rng = createRng(seed);
  const plan = planNotes(rng, notes);
  const texts = plan.map((note) => noteText(rng, plan, note));
  const folders = new Set(plan.map((note) => note.folder));
  for (const folder of folders) await mkdir(join(dir, folder), { recursive: true });
  await mkdir(join(dir, '.obsidian'), { recursive: true });
  const app = { alwaysUpdateLinks: true, newFileLocation: 'folder', newFileFolderPath: 'Inbox', attachmentFolderPath: 'Resources', showLineNumber: true, promptDelete: false };
  await writeFile(join(dir, '.obsidian', 'app.json'), `${JSON.stringify(app, null, 2)}\n`);
  let bytes = 0;
  await eachLimited(plan, 64, async (note, i) => {
    bytes += Buffer.byteLength(texts[i]);
    await writeFile(join(dir, note.path), texts[i]);
  });
  return { files: plan.map((note) => note.path), bytes };
}
