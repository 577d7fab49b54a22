import type { Mem } from '../mem/createMem';
import type { MemContext } from '../mem/MemContext';
import type { RecalledMemory } from '../mem/recall';
import { workingMemoryLocation } from '../mem/workingMemory';
import { countTokens, loadTokenizer } from '../tokens/countTokens';
import { readWorkingTree } from './workingMemoryStore';
import { stringify } from 'yaml';
import { sizeOf } from './workingMemoryTree';

/** What the agent's prompt shows of memory. */
export interface AgentMemory {
  /**
   * The memories most relevant to the request and the most recent ones, as a prompt section
   * within `tokens` (the setting); null when there are none or the budget is 0.
   */
  preamble(request: string, tokens: number): Promise<string | null>;
  /** The working memory as a prompt section (shown every turn). */
  workingMemory(): Promise<string>;
}

/** Default token budget of the memory preamble. */
export const DEFAULT_MEMORY_PROMPT_TOKENS = 1500;
const EACH = 5;
const ENTRY_CHARS = 1200;

export function createAgentMemory(mem: Mem, context: MemContext): AgentMemory {
  return {
    async preamble(request, tokens) {
      if (!(tokens > 0)) return null;
      const query = request.trim().slice(0, 1000);
      const relevant = query === '' ? [] : await mem.recall({ query, limit: EACH }).then((result) => result.memories, () => []);
      const recent = await mem.recall({ limit: EACH }).then((result) => result.memories, () => []);
      // Relevant first, then recent; a memory that is both is shown once.
      const byPath = new Map<string, RecalledMemory>();
      for (const memory of [...relevant, ...recent]) if (!byPath.has(memory.path)) byPath.set(memory.path, memory);
      const picked = [...byPath.values()];
      if (picked.length === 0) return null;
      await loadTokenizer();
      const head = '## Memories from earlier work\n\nRelevant and recent memory notes (find more with mem.recall). They may be out of date: the notes in the vault are the truth.';
      let text = head;
      let used = countTokens(text);
      let shown = 0;
      for (const memory of picked) {
        const entry = `\n\n${renderEntry(memory)}`;
        const cost = countTokens(entry);
        if (used + cost > tokens) continue;
        text += entry;
        used += cost;
        shown++;
      }
      return shown === 0 ? null : text;
    },
    async workingMemory() {
      const limits = `at most ${context.options.workingMemoryCharLimit} characters, ${context.options.workingMemoryChildLimit} children per node`;
      try {
        const location = await workingMemoryLocation(context);
        const tree = await readWorkingTree(location);
        const size = sizeOf(tree);
        const body = Object.keys(tree).length === 0 ? '(empty)' : `\`\`\`yaml\n${stringify(tree, { lineWidth: 0 })}\`\`\``;
        return `## Working memory (${size} of ${location.charLimit} characters used; ${limits})\n\nKept in the note "${location.note}".\n\n${body}`;
      } catch (error) {
        return `## Working memory (${limits})\n\nIt cannot be shown: ${error instanceof Error ? error.message : String(error)}`;
      }
    },
  };
}

function renderEntry(memory: RecalledMemory): string {
  const tags = memory.tags.length === 0 ? '' : ` [${memory.tags.join(', ')}]`;
  const content = memory.content.length > ENTRY_CHARS ? `${memory.content.slice(0, ENTRY_CHARS - 1)}…` : memory.content;
  return `### ${memory.timestamp.slice(0, 16).replace('T', ' ')} UTC${tags} (${memory.path})\n${content}`;
}
