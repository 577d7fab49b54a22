import type { ChatMessage } from '../llm/types';
import type { VaultPort } from '../ports';
import { compareCodePoints } from '../util/compareCodePoints';

const FORMAT_VERSION = 1;
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export interface Conversation {
  id: string;
  title: string;
  /** ISO 8601. */
  created: string;
  updated: string;
  messages: ChatMessage[];
}

export interface ConversationSummary {
  id: string;
  title: string;
  updated: string;
}

export interface StoreProblem {
  file: string;
  reason: string;
}

/**
 * Conversations, one JSON file each, in a folder outside the vault's history (the plugin's data
 * folder in Obsidian). A file that cannot be read as a conversation is reported and skipped,
 * never fatal; writes replace a file whole.
 */
export class ConversationStore {
  constructor(
    private readonly files: VaultPort,
    private readonly folder: string,
  ) {}

  async save(conversation: Conversation): Promise<void> {
    if (!ID.test(conversation.id)) throw new Error(`invalid conversation id ${JSON.stringify(conversation.id.slice(0, 70))}`);
    await this.files.write(this.pathOf(conversation.id), JSON.stringify({ version: FORMAT_VERSION, ...conversation }));
  }

  /** The conversation, or null when it does not exist or cannot be read (see `problems`). */
  async load(id: string): Promise<Conversation | null> {
    if (!ID.test(id)) return null;
    const path = this.pathOf(id);
    if (!(await this.files.exists(path))) return null;
    return readConversation(await this.files.readText(path), id);
  }

  /** Every readable conversation, newest first, and the files that could not be read. */
  async list(): Promise<{ conversations: ConversationSummary[]; problems: StoreProblem[] }> {
    const conversations: ConversationSummary[] = [];
    const problems: StoreProblem[] = [];
    if (!(await this.files.exists(this.folder))) return { conversations, problems };
    for (const file of (await this.files.list(this.folder)).files.filter((name) => name.endsWith('.json'))) {
      const id = file.slice(file.lastIndexOf('/') + 1, -'.json'.length);
      try {
        const conversation = readConversation(await this.files.readText(file), id);
        if (conversation === null) problems.push({ file, reason: 'not a Recursa conversation, or from a newer version' });
        else conversations.push({ id: conversation.id, title: conversation.title, updated: conversation.updated });
      } catch (error) {
        problems.push({ file, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    conversations.sort((a, b) => compareCodePoints(b.updated, a.updated));
    return { conversations, problems };
  }

  async remove(id: string): Promise<void> {
    if (ID.test(id) && (await this.files.exists(this.pathOf(id)))) await this.files.remove(this.pathOf(id));
  }

  private pathOf(id: string): string {
    return `${this.folder}/${id}.json`;
  }
}

function readConversation(text: string, id: string): Conversation | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  const value = data as Partial<Conversation> & { version?: unknown };
  if (value.version !== FORMAT_VERSION || value.id !== id || typeof value.title !== 'string' || !Array.isArray(value.messages)) return null;
  const messages = value.messages.filter(
    (message): message is ChatMessage =>
      typeof message === 'object' && message !== null && (message.role === 'user' || message.role === 'assistant') && typeof message.content === 'string',
  );
  if (messages.length !== value.messages.length) return null;
  return { id, title: value.title, created: String(value.created ?? ''), updated: String(value.updated ?? ''), messages };
}
