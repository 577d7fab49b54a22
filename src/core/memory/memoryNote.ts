import { parse, stringify } from 'yaml';
import { splitFrontmatter } from '../content/frontmatter';
import { normalizeTags } from './normalizeTags';

/** Where a memory came from, as far as it is known when it is written. */
export interface MemorySource {
  conversation: string | null;
  run: string | null;
  /** The note open in the editor. */
  note: string | null;
  /** The vault's HEAD commit. */
  commit: string | null;
}

/** A memory note as Recursa reads it back: whatever the user did to it, every field has a value. */
export interface MemoryRecord {
  /** `mem_` and 16 hex characters; for a note without one, derived from its path. */
  id: string;
  /** Vault-relative path of the note. */
  path: string;
  /** When it was remembered, ISO 8601. */
  timestamp: string;
  /** The same moment in milliseconds, for sorting and filtering. */
  time: number;
  tags: string[];
  /** The note's body, without its frontmatter. */
  content: string;
}

export function renderMemoryNote(fields: { id: string; timestamp: string; tags: readonly string[]; source: MemorySource; content: string }): string {
  const frontmatter = stringify(
    { id: fields.id, timestamp: fields.timestamp, tags: [...fields.tags], source: { ...fields.source } },
    { lineWidth: 0 },
  );
  return `---\n${frontmatter}---\n\n${fields.content.trim()}\n`;
}

const NAME_TIME = /(?:^|\/)(\d{4})-(\d{2})-(\d{2})\/(\d{2})(\d{2})(\d{2})_[^/]*$/;

/**
 * Reads a memory note. A note the user edited by hand is read as it is: a missing or unreadable
 * frontmatter leaves the id derived from the path, the time from the `YYYY-MM-DD/HHMMSS_…` name
 * (else `fallbackTime`, the file's mtime), and no tags.
 */
export function readMemoryNote(path: string, text: string, fallbackTime: number): MemoryRecord {
  let data: Record<string, unknown> = {};
  let body = text;
  const split = splitFrontmatter(text);
  if (split !== null) {
    body = text.split('\n').slice(split.bodyStartLine - 1).join('\n');
    try {
      const parsed: unknown = parse(split.yaml, { schema: 'core' });
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
    } catch {
      // A broken frontmatter is the user's to fix; the body is still a memory.
    }
  }
  const time = memoryTime(data.timestamp, path, fallbackTime);
  const id = typeof data.id === 'string' && data.id.trim() !== '' ? data.id.trim() : `mem_${path}`;
  return { id, path, timestamp: new Date(time).toISOString(), time, tags: tagsOf(data.tags), content: body.trim() };
}

/** A memory's time: its `timestamp` property, else the time in its file name, else the file's mtime. */
export function memoryTime(timestamp: unknown, path: string, mtime: number): number {
  return timeOf(timestamp) ?? timeFromName(path) ?? mtime;
}

function timeOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string') return null;
  const time = new Date(value).getTime();
  return Number.isFinite(time) ? time : null;
}

function timeFromName(path: string): number | null {
  const match = NAME_TIME.exec(path);
  if (match === null) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const time = new Date(year, month - 1, day, hour, minute, second).getTime();
  return Number.isFinite(time) ? time : null;
}

function tagsOf(value: unknown): string[] {
  if (typeof value === 'string') return normalizeTags(value.split(/[,\s]+/));
  if (!Array.isArray(value)) return [];
  return normalizeTags(value.filter((tag): tag is string | number => typeof tag === 'string' || typeof tag === 'number').map(String));
}
