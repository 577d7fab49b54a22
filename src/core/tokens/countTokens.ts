import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';

let encoder: Tiktoken | null = null;

/**
 * Number of BPE tokens in `text` under `cl100k_base`, the encoding of the GPT-4 / GPT-3.5
 * family; other models' tokenizers land within a few percent on English prose. Special-token
 * spellings such as `<|endoftext|>` count as ordinary text (a note may contain them).
 *
 * The encoder's rank table is parsed on first use (about 100 ms), not at startup.
 */
export function countTokens(text: string): number {
  encoder ??= new Tiktoken(cl100kBase);
  return encoder.encode(text, [], []).length;
}
