import { parse, stringify } from 'yaml';
import { toWorkingValue, isNode, type WorkingTree } from './workingMemoryTree';
import { WorkingMemoryError } from './WorkingMemoryError';

const BLOCK = /^```ya?ml[ \t]*\r?\n([\s\S]*?)^```[ \t]*$/m;

/**
 * The working memory as a note the user can read and edit: a short heading and explanation, and
 * the tree as a YAML block. Only the block is read back.
 */
export function renderWorkingMemoryNote(tree: WorkingTree, limits: { charLimit: number; childLimit: number }): string {
  const yaml = Object.keys(tree).length === 0 ? '{}\n' : stringify(tree, { lineWidth: 0 });
  return (
    '# Working memory\n\n' +
    `Recursa's scratchpad, always in its prompt: at most ${limits.charLimit} characters and ${limits.childLimit} children per node. ` +
    'Only the YAML block below is read; keep it valid YAML if you edit it.\n\n' +
    `\`\`\`yaml\n${yaml}\`\`\`\n`
  );
}

/** The tree in a working-memory note; an empty tree for an empty note. */
export function readWorkingMemoryNote(path: string, text: string): WorkingTree {
  const match = BLOCK.exec(text);
  const yaml = match === null ? (text.trim() === '' ? '' : null) : (match[1] ?? '');
  if (yaml === null) throw unreadable(path, 'it has no ```yaml block');
  let data: unknown;
  try {
    data = parse(yaml, { schema: 'core' });
  } catch (error) {
    throw unreadable(path, `its YAML block does not parse (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  }
  if (data === null || data === undefined) return {};
  let value;
  try {
    value = toWorkingValue(data);
  } catch (error) {
    throw unreadable(path, error instanceof Error ? error.message : String(error));
  }
  if (!isNode(value)) throw unreadable(path, 'its YAML block is not a mapping');
  return value;
}

function unreadable(path: string, why: string): WorkingMemoryError {
  return new WorkingMemoryError('unreadable', `The working-memory note "${path}" cannot be read: ${why}. Fix the note, or set the whole working memory again with set on "/".`, { path });
}
