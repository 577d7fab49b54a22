import type { Slicer } from '../../util/Slicer';
import { contentLines } from './contentLines';
import { lowerCase, normalizeTag, sameTarget, unquote, valueForms, WHOLE_LINK } from './matchValues';
import type { QueryNode, TermNode } from './queryNode';
import type { QueryableNote, QuerySource } from './querySource';

/** Per note (by index): the matched line numbers, or null when the note does not match. */
export type Outcome = (ReadonlySet<number> | null)[];

/** Notes worked through between looks at the clock (a mask: every 32 notes). */
export const PAUSE_EVERY = 0x1f;

/** A match with no line of its own (`NOT`, `path`); shared, as outcomes are never changed in place. */
const NO_LINES: ReadonlySet<number> = new Set<number>();

/** Works out a query's outcome over the source's notes, term by term, in slices. */
export class Evaluator {
  readonly notes: QueryableNote[];
  private readonly resolved = new Map<string, string | null>();
  private readonly forms = new Map<(text: string) => unknown, Map<string, unknown>>();

  constructor(
    private readonly source: QuerySource,
    private readonly slicer: Slicer,
  ) {
    this.notes = [...source.notes()];
  }

  async evaluate(node: QueryNode): Promise<Outcome> {
    switch (node.kind) {
      case 'and': {
        const left = await this.evaluate(node.left);
        const right = await this.evaluate(node.right);
        return left.map((lines, i) => {
          const other = right[i];
          return lines && other ? union(lines, other) : null;
        });
      }
      case 'or': {
        const left = await this.evaluate(node.left);
        const right = await this.evaluate(node.right);
        return left.map((lines, i) => {
          const other = right[i] ?? null;
          if (lines && other) return union(lines, other);
          return lines ?? other;
        });
      }
      case 'not':
        return (await this.evaluate(node.operand)).map((lines) => (lines ? null : NO_LINES));
      default:
        return this.evaluateTerm(node);
    }
  }

  private evaluateTerm(node: TermNode): Outcome | Promise<Outcome> {
    switch (node.kind) {
      case 'property':
        return this.byLines(this.propertyLines(node.key, node.value));
      case 'outgoing-link':
        return this.byLines(this.linkLines(node.target));
      case 'backlink':
        return this.backlinks(node.target);
      case 'tag':
        return this.byLines(this.tagLines(node.tag));
      case 'path':
        return this.notes.map((note) => (note.path.startsWith(node.prefix) ? NO_LINES : null));
      case 'content': {
        const lowered = node.text.toLowerCase();
        const linesOf = contentLines;
        return this.byLines((note) => (note.mayContain?.(lowered) === false ? [] : linesOf(note.text, node.text)));
      }
    }
  }

  /**
   * `form(text)`, worked out once per text and query: a vault's notes share a few tags,
   * property keys and values.
   */
  private remembered<T>(text: string, form: (text: string) => T): T {
    let forms = this.forms.get(form) as Map<string, T> | undefined;
    if (forms === undefined) this.forms.set(form, (forms = new Map<string, T>()));
    let value = forms.get(text);
    if (value === undefined && !forms.has(text)) forms.set(text, (value = form(text)));
    return value as T;
  }

  /** A note matches when `lines` finds at least one line. The notes are worked through in slices. */
  private async byLines(lines: (note: QueryableNote) => number[]): Promise<Outcome> {
    const outcome: Outcome = [];
    const pauseEvery = PAUSE_EVERY;
    for (let i = 0; i < this.notes.length; i++) {
      if ((i & pauseEvery) === pauseEvery) await this.slicer.maybeYield();
      const found = lines(this.notes[i] as QueryableNote);
      outcome.push(found.length > 0 ? new Set(found) : null);
    }
    return outcome;
  }

  /** The lines of a note's links to `target`, resolved from the note's folder. */
  private linkLines(target: string): (note: QueryableNote) => number[] {
    const same = sameTarget;
    return (note) => {
      const resolved = this.resolveFrom(target, note.path);
      return note.outgoing.filter((link) => same(link.target, resolved, target)).map((link) => link.line);
    };
  }

  /** The lines of a note's tags that are `tag` or nested under it. */
  private tagLines(tag: string): (note: QueryableNote) => number[] {
    const normalize = normalizeTag;
    const wanted = normalize(tag);
    const nested = `${wanted}/`;
    return (note) => {
      const found: number[] = [];
      for (const { tag, line } of note.tags) {
        const have = this.remembered(tag, normalize);
        if (have === wanted || have.startsWith(nested)) found.push(line);
      }
      return found;
    };
  }

  /** The lines of a note's properties with `key` (and `value`, when given). */
  private propertyLines(key: string, value: string | null): (note: QueryableNote) => number[] {
    const wantedKey = key.toLowerCase();
    const wanted = value === null ? [] : valueForms(value);
    const keyForm = lowerCase;
    return (note) => {
      const found: number[] = [];
      for (const property of note.properties) {
        if (this.remembered(property.key, keyForm) !== wantedKey) continue;
        if (value === null || this.valueMatches(property.value, value, wanted, note.path)) found.push(property.line);
      }
      return found;
    };
  }

  private valueMatches(have: string, want: string, wantForms: string[], fromPath: string): boolean {
    const haveForms = this.remembered(have, valueForms);
    if (haveForms.some((form) => wantForms.includes(form))) return true;
    const haveLink = WHOLE_LINK.exec(unquote(have.trim()))?.[1]?.trim();
    if (haveLink === undefined || haveLink === '') return false;
    const wantText = unquote(want.trim());
    const wantLink = (WHOLE_LINK.exec(wantText)?.[1] ?? wantText).trim();
    if (wantLink === '') return false;
    const a = this.resolveFrom(haveLink, fromPath);
    return a !== null && a === this.resolveFrom(wantLink, fromPath);
  }

  /** Notes that the page links to; the page resolves from the vault root. */
  private backlinks(page: string): Outcome {
    const pagePath = this.source.resolve(page, '');
    const lower = page.toLowerCase();
    const from = this.notes.find((note) =>
      pagePath !== null ? note.path === pagePath : note.path.toLowerCase() === lower || note.path.toLowerCase() === `${lower}.md`,
    );
    const targets = new Set(from?.outgoing.map((link) => link.target) ?? []);
    return this.notes.map((note) => (targets.has(note.path) ? NO_LINES : null));
  }

  /** Resolves link text as a note in `fromPath`'s folder would; cached per folder. */
  private resolveFrom(target: string, fromPath: string): string | null {
    const folder = fromPath.slice(0, fromPath.lastIndexOf('/') + 1);
    const key = `${folder}\0${target}`;
    if (!this.resolved.has(key)) this.resolved.set(key, this.source.resolve(target, fromPath));
    return this.resolved.get(key) ?? null;
  }
}

function union(a: ReadonlySet<number>, b: ReadonlySet<number>): ReadonlySet<number> {
  if (b.size === 0) return a;
  if (a.size === 0) return b;
  const out = new Set(a);
  for (const line of b) out.add(line);
  return out;
}
