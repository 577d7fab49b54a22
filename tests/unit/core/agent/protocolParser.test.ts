import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  correctionMessage,
  parseResponse,
  StreamingParser,
  type ParsedResponse,
  type ProtocolTag,
} from '../../../../src/core/agent/protocolParser';

/** Turn 1 of the seed's worked example: think, then code, no reply. */
const SEED_TURN_1 = `<think>
Got it. I'll create pages for Dr. Aris Thorne and the AI Research Institute, and link them together.
</think>
<typescript>
// Perform all logic in one block for maximum efficiency.
const orgPath = 'AI Research Institute.md';
const orgExists = await mem.fileExists(orgPath);

if (!orgExists) {
  await mem.writeFile(
    orgPath,
    '# AI Research Institute\\ntype:: organization\\n'
  );
}

await mem.writeFile(
  'Dr. Aris Thorne.md',
  '# Dr. Aris Thorne\\ntype:: person\\naffiliation:: [[AI Research Institute]]\\nfield:: [[Symbolic Reasoning]]'
);
</typescript>`;

const SEED_TURN_1_CODE = SEED_TURN_1.slice(SEED_TURN_1.indexOf('// Perform'), SEED_TURN_1.indexOf('\n</typescript>'));

/** Turn 2 of the seed's worked example: think, commit, reply. */
const SEED_TURN_2 = `<think>
Okay, I'm saving those changes to your permanent knowledge base.
</think>
<typescript>
await mem.commitChanges('feat: Add Dr. Aris Thorne and AI Research Institute entities');
</typescript>
<reply>
Done. I've created pages for both Dr. Aris Thorne and the AI Research Institute and linked them.
</reply>`;

function parsed(overrides: Partial<ParsedResponse>): ParsedResponse {
  return { thinks: [], code: [], reply: null, prose: '', usable: true, unclosed: [], ...overrides };
}

/** Holds for every result, whatever the input. */
function expectWellFormed(result: ParsedResponse): void {
  for (const text of [...result.thinks, ...result.code]) {
    expect(text).not.toBe('');
    expect(text).toBe(text.trim());
  }
  if (result.reply !== null) {
    expect(result.reply).not.toBe('');
    expect(result.reply).toBe(result.reply.trim());
  }
  expect(result.prose).toBe(result.prose.trim());
  expect(result.usable).toBe(result.thinks.length > 0 || result.code.length > 0 || result.reply !== null);
  expect(result.unclosed.length).toBeLessThanOrEqual(1);
}

// Generators. Text tokens can never join into a protocol tag, so the parts are known exactly;
// code tokens also hold protocol tags other than </typescript>, which must stay code.
const TEXT_TOKENS = ['const', 'x', '=', ' ', '\n', '\t', '<', '>', '/', '1', '"', '(', ')', 'a < b', 'Array<string>', '<ts>', '</b>', 'é', '😀', '<<', '->', '\u00a0'];
const CODE_TOKENS = [...TEXT_TOKENS, '<think>', '</think>', '<reply>', '</reply>', '<typescript>', 'await mem.readFile("a.md");', 'const s = `a`;', 'return x;'];

const textFrom = (tokens: string[]): fc.Arbitrary<string> =>
  fc
    .array(fc.constantFrom(...tokens), { minLength: 1, maxLength: 8 })
    .map((parts) => parts.join('').trim())
    .filter((text) => text !== '');

const openTag = (name: ProtocolTag): fc.Arbitrary<string> =>
  fc
    .tuple(fc.mixedCase(fc.constant(name)), fc.constantFrom('', ' ', '\n', ' lang="ts"', '  id=1 '))
    .map(([tag, extra]) => `<${tag}${extra}>`);
const closeTag = (name: ProtocolTag): fc.Arbitrary<string> =>
  fc.tuple(fc.mixedCase(fc.constant(name)), fc.constantFrom('', ' ', '\n')).map(([tag, space]) => `</${tag}${space}>`);
const padding = fc.constantFrom('', ' ', '\n', '\n\n  ');

interface BlockSpec {
  kind: ProtocolTag;
  text: string;
  /** The block's content as written: the text, padded, code maybe fenced. */
  body: string;
  open: string;
  close: string;
  /** Whether to write the close tag when the block could do without one. */
  closed: boolean;
}

const block = (kind: ProtocolTag): fc.Arbitrary<BlockSpec> =>
  fc
    .record({
      text: textFrom(kind === 'typescript' ? CODE_TOKENS : TEXT_TOKENS),
      fence: kind === 'typescript' ? fc.constantFrom(null, '', 'ts', 'typescript', 'js') : fc.constant(null),
      before: padding,
      after: padding,
      open: openTag(kind),
      close: closeTag(kind),
      closed: fc.boolean(),
    })
    .map(({ text, fence, before, after, open, close, closed }) => ({
      kind,
      text,
      body: before + (fence === null ? text : `\`\`\`${fence}\n${text}\n\`\`\``) + after,
      open,
      close,
      closed,
    }));

interface ResponseSpec {
  text: string;
  expected: ParsedResponse;
}

/** A response from random parts, with what parsing it must give back. */
const response: fc.Arbitrary<ResponseSpec> = fc
  .tuple(
    fc.array(fc.oneof(block('think'), block('typescript'), block('reply')), { maxLength: 6 }),
    fc.array(fc.option(textFrom(TEXT_TOKENS), { freq: 3 }), { minLength: 7, maxLength: 7 }),
  )
  .map(([blocks, gaps]) => {
    let text = '';
    const prose: string[] = [];
    let unclosed: ProtocolTag[] = [];
    for (let i = 0; i <= blocks.length; i++) {
      const gap = gaps[i] ?? null;
      if (gap !== null) {
        text += `\n${gap}\n`;
        prose.push(gap);
      }
      const current = blocks[i];
      if (current === undefined) break;
      const next = blocks[i + 1];
      const gapAfter = gaps[i + 1] ?? null;
      // A block may go without its close tag at the end, or (think, reply) before another kind's tag.
      const mayOmit =
        next === undefined ? gapAfter === null : gapAfter === null && current.kind !== 'typescript' && next.kind !== current.kind;
      const omit = mayOmit && !current.closed;
      text += current.open + current.body + (omit ? '' : current.close);
      if (omit && next === undefined) unclosed = [current.kind];
    }
    const of = (kind: ProtocolTag): string[] => blocks.filter((b) => b.kind === kind).map((b) => b.text);
    const replies = of('reply');
    return {
      text,
      expected: {
        thinks: of('think'),
        code: of('typescript'),
        reply: replies.length > 0 ? replies.join('\n\n') : null,
        prose: prose.join('\n\n'),
        usable: blocks.length > 0,
        unclosed,
      },
    };
  });

const FRAGMENTS = [
  '<think>', '</think>', '<typescript>', '</typescript>', '<reply>', '</reply>', '<Think >', '</TYPESCRIPT >',
  '<REPLY a="1">', '<ts>', '</ts>', '<thinking>', '<think/>', '```ts\n', '```typescript\n', '```\n', '```', '<', '>',
  '</', 'text', ' ', '\n', 'const a = 1;', 'é', '😀', '\u00a0',
];

/** Random interleavings of tags, prose and fences. */
const tagSoup = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 30 }).map((parts) => parts.join(''));

/** Characters that can spell the tags, one at a time. */
const tagLetters = fc.string({ unit: fc.constantFrom('<', '>', '/', ' ', '\n', '`', 't', 'h', 'i', 'n', 'k', 'y', 'p', 'e', 's', 'c', 'r', 'l', 'T', 'R'), maxLength: 80 });

describe('parseResponse', () => {
  describe('when given the seed’s worked example', () => {
    it('reads turn 1 as a think and the code to run', () => {
      expect(parseResponse(SEED_TURN_1)).toEqual(
        parsed({
          thinks: ["Got it. I'll create pages for Dr. Aris Thorne and the AI Research Institute, and link them together."],
          code: [SEED_TURN_1_CODE],
        }),
      );
    });

    it('reads turn 2 as a think, the commit and the reply', () => {
      expect(parseResponse(SEED_TURN_2)).toEqual(
        parsed({
          thinks: ["Okay, I'm saving those changes to your permanent knowledge base."],
          code: ["await mem.commitChanges('feat: Add Dr. Aris Thorne and AI Research Institute entities');"],
          reply: "Done. I've created pages for both Dr. Aris Thorne and the AI Research Institute and linked them.",
        }),
      );
    });
  });

  describe('when the tags come in any order', () => {
    it('reads a reply before its think', () => {
      expect(parseResponse('<reply>Final answer.</reply><think>One last thought.</think>')).toEqual(
        parsed({ thinks: ['One last thought.'], reply: 'Final answer.' }),
      );
    });

    it('keeps code blocks in the order written', () => {
      const text = '<typescript>first();</typescript><think>Then</think><typescript>second();</typescript>\n<typescript>third();</typescript>';
      expect(parseResponse(text).code).toEqual(['first();', 'second();', 'third();']);
    });
  });

  describe('when the stream ends inside a block', () => {
    it('takes the code up to the end and lists the tag as unclosed', () => {
      expect(parseResponse('<think>Writing.</think>\n<typescript>\nconst a = 1;\n')).toEqual(
        parsed({ thinks: ['Writing.'], code: ['const a = 1;'], unclosed: ['typescript'] }),
      );
    });

    it('takes a reply cut off at the end', () => {
      expect(parseResponse('<reply>Done, I')).toEqual(parsed({ reply: 'Done, I', unclosed: ['reply'] }));
    });

    it('lists a tag cut off right after it opened', () => {
      expect(parseResponse('<think>Saving.</think><typescript>')).toEqual(parsed({ thinks: ['Saving.'], unclosed: ['typescript'] }));
    });

    it('reads a tag cut off before its > as text', () => {
      expect(parseResponse('<think>Saving.</think><typescr')).toEqual(parsed({ thinks: ['Saving.'], prose: '<typescr' }));
    });
  });

  describe('when the code is fenced', () => {
    it.each(['ts', 'typescript', ''])('strips a ```%s fence', (lang) => {
      expect(parseResponse(`<typescript>\n\`\`\`${lang}\nreturn 1;\n\`\`\`\n</typescript>`).code).toEqual(['return 1;']);
    });

    it('strips an opening fence whose closing fence was cut off', () => {
      expect(parseResponse('<typescript>\n```ts\nreturn 1;\n').code).toEqual(['return 1;']);
    });

    it('keeps fence-free code as is, template literals included', () => {
      const code = 'const s = `a`;\nreturn s;';
      expect(parseResponse(`<typescript>${code}</typescript>`).code).toEqual([code]);
    });

    it('strips only the outer fence', () => {
      const code = "await mem.writeFile('a.md', '```js\\nx\\n```');";
      expect(parseResponse(`<typescript>\`\`\`ts\n${code}\n\`\`\`</typescript>`).code).toEqual([code]);
    });

    it('drops a block holding nothing but fences', () => {
      expect(parseResponse('<typescript>```ts\n```</typescript>')).toEqual(parsed({ usable: false }));
    });
  });

  describe('when there is prose outside the tags', () => {
    it('collects it, one blank line between stretches', () => {
      const text = 'Sure! Here is my plan.\n<think>Looking.</think>\nAnd then:\n<typescript>go();</typescript>\nThanks.';
      expect(parseResponse(text)).toEqual(
        parsed({ thinks: ['Looking.'], code: ['go();'], prose: 'Sure! Here is my plan.\n\nAnd then:\n\nThanks.' }),
      );
    });

    it('is not usable with prose alone', () => {
      expect(parseResponse('I think the answer is 42.')).toEqual(parsed({ prose: 'I think the answer is 42.', usable: false }));
    });

    it('is not usable when empty', () => {
      expect(parseResponse('')).toEqual(parsed({ usable: false }));
    });

    it('drops stray close tags', () => {
      expect(parseResponse('Hello</think> world</REPLY>')).toEqual(parsed({ prose: 'Hello\n\nworld', usable: false }));
    });
  });

  describe('when tags vary in case, whitespace or attributes', () => {
    it('reads upper and mixed case tags', () => {
      expect(parseResponse('<Think>Hi</THINK><TYPESCRIPT>x();</TypeScript><REPLY>Ok</reply>')).toEqual(
        parsed({ thinks: ['Hi'], code: ['x();'], reply: 'Ok' }),
      );
    });

    it('reads whitespace and attributes inside tags', () => {
      expect(parseResponse('<think >Hi</think >\n<typescript lang="ts">x();</typescript\n><reply\n>Ok</reply\t>')).toEqual(
        parsed({ thinks: ['Hi'], code: ['x();'], reply: 'Ok' }),
      );
    });

    it('reads an overlong tag as text', () => {
      const text = `<think ${'a'.repeat(200)}>Hi</think>`;
      expect(parseResponse(text)).toEqual(parsed({ prose: `<think ${'a'.repeat(200)}>Hi`, usable: false }));
    });
  });

  describe('when there are unknown tags', () => {
    it('reads <ts> as prose', () => {
      expect(parseResponse('<ts>return 1;</ts>')).toEqual(parsed({ prose: '<ts>return 1;</ts>', usable: false }));
    });

    it('does not take <thinking> or <think/> for <think>', () => {
      expect(parseResponse('<thinking>Hmm</thinking><think/>')).toEqual(
        parsed({ prose: '<thinking>Hmm</thinking><think/>', usable: false }),
      );
    });

    it('keeps them as text inside a think or a reply', () => {
      expect(parseResponse('<think>Using <b>bold</b></think><reply>See <ts></reply>')).toEqual(
        parsed({ thinks: ['Using <b>bold</b>'], reply: 'See <ts>' }),
      );
    });
  });

  describe('when code holds tag-like text', () => {
    it('keeps it as code: only </typescript> ends a code block', () => {
      const code = "const html = '<reply>done</reply><think>x</think>';\nif (a < b && c > d) return html;\n<typescript>";
      expect(parseResponse(`<typescript>${code}</typescript><reply>Ok</reply>`)).toEqual(parsed({ code: [code], reply: 'Ok' }));
    });

    it('keeps the whole rest as code when </typescript> never comes', () => {
      expect(parseResponse('<typescript>run();\n<reply>Done</reply>')).toEqual(
        parsed({ code: ['run();\n<reply>Done</reply>'], unclosed: ['typescript'] }),
      );
    });
  });

  describe('when a think or a reply is not closed', () => {
    it('ends a think at the next opening tag of another kind', () => {
      expect(parseResponse('<think>Working on it\n<typescript>go();</typescript>')).toEqual(
        parsed({ thinks: ['Working on it'], code: ['go();'] }),
      );
    });

    it('ends a reply at the next opening tag of another kind', () => {
      expect(parseResponse('<reply>Done.<think>Also this.</think>')).toEqual(parsed({ thinks: ['Also this.'], reply: 'Done.' }));
    });

    it('keeps an opening tag of the same kind as text', () => {
      expect(parseResponse('<think>a<think>b</think>')).toEqual(parsed({ thinks: ['a<think>b'] }));
    });
  });

  describe('when there are several or empty blocks', () => {
    it('joins replies with a blank line', () => {
      expect(parseResponse('<reply>One.</reply>\n<reply> Two. </reply>').reply).toBe('One.\n\nTwo.');
    });

    it('keeps every think', () => {
      expect(parseResponse('<think>a</think><think>b</think>').thinks).toEqual(['a', 'b']);
    });

    it('leaves empty blocks out and is not usable with nothing else', () => {
      expect(parseResponse('<think> </think><typescript>\n</typescript><reply></reply>')).toEqual(parsed({ usable: false }));
    });
  });

  describe('properties', () => {
    it('never throws on arbitrary strings', () => {
      fc.assert(
        fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), tagLetters), (text) => {
          expectWellFormed(parseResponse(text));
        }),
        { seed: 1701, numRuns: 1000 },
      );
    });

    it('never throws on random interleavings of tags, prose and fences', () => {
      fc.assert(
        fc.property(tagSoup, (text) => {
          expectWellFormed(parseResponse(text));
        }),
        { seed: 1702, numRuns: 1000 },
      );
    });

    it('never throws on any truncation of a valid response', () => {
      fc.assert(
        fc.property(response, ({ text }) => {
          for (let end = 0; end <= text.length; end++) expectWellFormed(parseResponse(text.slice(0, end)));
        }),
        { seed: 1703, numRuns: 200 },
      );
    });

    it('gives back exactly the parts a response was built from', () => {
      fc.assert(
        fc.property(response, ({ text, expected }) => {
          expect(parseResponse(text)).toEqual(expected);
        }),
        { seed: 1704, numRuns: 1000 },
      );
    });
  });
});

describe('StreamingParser', () => {
  function feed(chunks: string[]): { parser: StreamingParser; thinks: string[] } {
    const parser = new StreamingParser();
    const thinks: string[] = [];
    for (const chunk of chunks) {
      parser.push(chunk);
      thinks.push(parser.thinkText());
    }
    return { parser, thinks };
  }

  describe('thinkText', () => {
    it('is empty before a think starts', () => {
      expect(feed(['Hello ', '<think']).thinks).toEqual(['', '']);
    });

    it('grows as the think streams in, trimmed', () => {
      expect(feed(['<think>\n', 'Looking', ' up ', 'notes', '\n</think>']).thinks).toEqual(['', 'Looking', 'Looking up', 'Looking up notes', 'Looking up notes']);
    });

    it('holds back a possible tag until the next chunk decides it', () => {
      expect(feed(['<think>Hello <', 'typ', 'escript>go();']).thinks).toEqual(['Hello', 'Hello', 'Hello']);
      expect(feed(['<think>a <', 'b']).thinks).toEqual(['a', 'a <b']);
    });

    it('keeps the last think while a new one is still empty', () => {
      expect(feed(['<think>First</think><typescript>x</typescript><think>', ' ', 'Second']).thinks).toEqual(['First', 'First', 'Second']);
    });

    it('stays cheap over 10,000 one-character pushes', () => {
      const think = 'Reading notes < and > links. '.repeat(400).slice(0, 10_000).trim();
      const text = `<THINK>${think}</THINK><typescript>${'if (a < b) x++;\n'.repeat(300)}</typescript>`;
      const parser = new StreamingParser();
      let seen = 0;
      for (const char of text) {
        parser.push(char);
        seen = Math.max(seen, parser.thinkText().length);
      }
      expect(parser.thinkText()).toBe(think);
      expect(seen).toBe(think.length);
      expect(parser.result()).toEqual(parseResponse(text));
    });
  });

  describe('result', () => {
    it('reads a tag split across chunks', () => {
      const { parser } = feed(['<think>Go</thi', 'nk><typ', 'escript>', 'run();</', 'typescript', '>']);
      expect(parser.result()).toEqual(parsed({ thinks: ['Go'], code: ['run();'] }));
    });

    it('reads a held-back <… as text, as parseResponse does at the end', () => {
      const { parser } = feed(['<reply>a <re']);
      expect(parser.result()).toEqual(parseResponse('<reply>a <re'));
      expect(parser.result().reply).toBe('a <re');
    });
  });

  describe('properties', () => {
    /** A text and the places it is cut into chunks. */
    const split = fc
      .tuple(fc.oneof(response.map(({ text }) => text), tagSoup, tagLetters), fc.array(fc.nat(), { maxLength: 25 }))
      .map(([text, cuts]) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let last = 0;
        for (const point of [...points, text.length]) {
          chunks.push(text.slice(last, point));
          last = point;
        }
        return { text, chunks };
      });

    it('gives, after each chunk, the result parseResponse gives on the text so far', () => {
      fc.assert(
        fc.property(split, ({ text, chunks }) => {
          const parser = new StreamingParser();
          let received = '';
          for (const chunk of chunks) {
            parser.push(chunk);
            received += chunk;
            expect(parser.result()).toEqual(parseResponse(received));
          }
          expect(parser.result()).toEqual(parseResponse(text));
        }),
        { seed: 1705, numRuns: 1000 },
      );
    });

    it('shows in thinkText only prefixes of the final thinks, ending on the last one', () => {
      fc.assert(
        fc.property(split, ({ text, chunks }) => {
          const whole = parseResponse(text);
          const parser = new StreamingParser();
          let previous = '';
          for (const chunk of chunks) {
            parser.push(chunk);
            const shown = parser.thinkText();
            if (shown !== '') expect(whole.thinks.some((think) => think.startsWith(shown))).toBe(true);
            // With a single think, the text only ever grows.
            if (whole.thinks.length <= 1) expect(shown.startsWith(previous)).toBe(true);
            previous = shown;
          }
          // A stream stopped inside a think may still hold back a trailing `<…` as a possible tag.
          if (!whole.unclosed.includes('think')) expect(parser.thinkText()).toBe(whole.thinks.at(-1) ?? '');
        }),
        { seed: 1706, numRuns: 1000 },
      );
    });
  });
});

describe('correctionMessage', () => {
  it('names the three tags', () => {
    const message = correctionMessage();
    for (const tag of ['<think>', '<typescript>', '<reply>']) expect(message).toContain(tag);
  });
});
