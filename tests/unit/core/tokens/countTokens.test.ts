import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getEncoding } from 'js-tiktoken';
import { Tiktoken } from 'js-tiktoken/lite';
import cl100kBase from 'js-tiktoken/ranks/cl100k_base';
import { countTokens, countTokensInSlices } from '../../../../src/core/tokens/countTokens';

describe('countTokens', () => {
  it('counts cl100k_base tokens, not characters', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('tokenization')).toBe(2);
    expect(countTokens(' '.repeat(40))).toBeLessThan(40);
  });

  it('treats special-token spellings in a note as plain text', () => {
    expect(countTokens('before <|endoftext|> after')).toBeGreaterThan(3);
  });
});

describe('countTokens on large and pathological text', () => {
  const direct = (text: string): number => new Tiktoken(cl100kBase).encode(text, [], []).length;

  it('counts long prose exactly as one encoder pass would, though it works in pieces', async () => {
    const prose = Array.from({ length: 4000 }, (_, i) => `Sentence ${i} talks about notes, links and [[Page ${i % 50}]].`).join(' ');
    expect(prose.length).toBeGreaterThan(100_000);
    expect(countTokens(prose)).toBe(direct(prose));
    expect(await countTokensInSlices(prose)).toBe(direct(prose));
  });

  it('counts runs of letters or whitespace in slices, within a token per slice', () => {
    for (const run of ['a'.repeat(2048), `x${' '.repeat(2048)}x`, `x${'\u00a0'.repeat(2048)}x`]) {
      expect(Math.abs(countTokens(run) - direct(run))).toBeLessThanOrEqual(2048 / 256 + 1);
    }
  });
});

describe('countTokens against js-tiktoken\'s own cl100k_base encoder', () => {
  // The bundles carry the rank table compressed (recursa:cl100k-ranks); the counts must not move.
  const reference = getEncoding('cl100k_base');
  const expected = (text: string): number => reference.encode(text, [], []).length;

  const samples: Record<string, string> = {
    english: 'The quick brown fox jumps over the lazy dog. It\'s 3:45pm — isn\'t it? "Quoted", (parenthesised) & so on…',
    numbers: '1 12 123 1234 12345 3.14159 -42 1e10 0x1F 2025-03-14 +49 (0)30 1234567',
    code: 'export async function main(argv: string[]): Promise<number> {\n\tconst x = argv.map((a) => a.trim());\n\treturn x.length > 0 ? 0 : 1; // done\n}\n',
    markdown: '# Title\n\n- [ ] task [[Some Page|alias]] #tag/nested ^block-id\n> quote\n\n| a | b |\n|---|---|\n| 1 | 2 |\n```ts\nlet y = 2;\n```\n',
    cjk: '東京は日本の首都です。我喜欢学习新的语言。한국어 문장도 있습니다。カタカナとひらがな。',
    accents: 'Ça va très bien, naïve façade, Übergrößenträger, ¿Dónde está? Ελληνικά, русский текст, עברית, العربية',
    emoji: '👋🏽 Hello 🌍! Family: 👨‍👩‍👧‍👦, flags 🇮🇹🇩🇪, ❤️‍🔥 and ✨🍅🌱 keycaps 1️⃣#️⃣',
    whitespace: `a${' '.repeat(200)}b\n\n\n\t\t\tc \r\n d${'\n'.repeat(100)}e\u00a0\u00a0f\u2003g   `,
    specialTokens: 'before <|endoftext|> <|fim_prefix|><|fim_middle|><|fim_suffix|> <|endofprompt|> <|im_start|>user after',
    mixed: 'url https://example.com/a/b?c=d&e=f#g, email someone@example.org, path C:\\Users\\x\\file.txt, ~/.config/app',
  };

  for (const [name, text] of Object.entries(samples)) {
    it(`counts ${name} exactly`, async () => {
      expect(countTokens(text)).toBe(expected(text));
      expect(await countTokensInSlices(text)).toBe(expected(text));
    });
  }

  it('counts every note of the demo vault exactly', () => {
    const notes = readdirSync('demo-vault', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md'));
    expect(notes.length).toBeGreaterThan(20);
    for (const note of notes) {
      const text = readFileSync(join('demo-vault', note), 'utf8');
      expect({ note, count: countTokens(text) }).toEqual({ note, count: expected(text) });
    }
  });
});
