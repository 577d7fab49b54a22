import { validateFrontmatter } from './frontmatter';
import { validateLogseqBlocks } from './logseq';

/** Which format rules a `.md` file must follow beyond Obsidian's frontmatter rules. */
export interface MarkdownRules {
  /** The file is a Logseq page: an outline of `- ` blocks with `key:: value` properties. */
  logseq: boolean;
}

/** Plain Obsidian notes: only the frontmatter is checked. */
export const DEFAULT_MARKDOWN_RULES: MarkdownRules = { logseq: false };

/**
 * Checks markdown content before it is written: the frontmatter always (closed, valid YAML, a
 * mapping), and the Logseq outline rules when `rules.logseq` (blocks start after the
 * frontmatter). Linear in the length of the content.
 *
 * @param path The file's path, for the error.
 * @param content The whole file as it would be written.
 * @param rules Which rules apply.
 * @throws InvalidContent naming the first offending line (1-based, in the whole file) and the
 *   rule; the message says how to fix it.
 * @example
 * validateMarkdown('pages/Plan.md', '- Buy milk\n\t- 2 litres', { logseq: true }); // passes
 */
export function validateMarkdown(path: string, content: string, rules: MarkdownRules): void {
  validateFrontmatter(path, content);
  if (rules.logseq) validateLogseqBlocks(path, content);
}
