import { describe, expect, it } from 'vitest';
import { parseSse, type SseEvent } from '../../../../src/core/llm/sse';

const encoder = new TextEncoder();

async function* chunksOf(parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? encoder.encode(part) : part;
}

async function parse(...parts: (string | Uint8Array)[]): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of parseSse(chunksOf(parts))) events.push(event);
  return events;
}

/** The stream split into single bytes. */
function bytewise(text: string): Uint8Array[] {
  return Array.from(encoder.encode(text), (byte) => Uint8Array.of(byte));
}

describe('parseSse', () => {
  it('yields one event per blank line, with a null event name when there is none', async () => {
    expect(await parse('data: one\n\ndata: two\n\n')).toEqual([
      { event: null, data: 'one' },
      { event: null, data: 'two' },
    ]);
  });

  it('reads the event field, and forgets it after each dispatch', async () => {
    expect(await parse('event: message_start\ndata: {}\n\ndata: x\n\n')).toEqual([
      { event: 'message_start', data: '{}' },
      { event: null, data: 'x' },
    ]);
  });

  it('joins several data lines with a newline', async () => {
    expect(await parse('data: first\ndata: second\ndata:\ndata: fourth\n\n')).toEqual([{ event: null, data: 'first\nsecond\n\nfourth' }]);
  });

  it('removes one space after the colon, and only one', async () => {
    expect(await parse('data:tight\n\ndata:  two spaces\n\ndata: a: b\n\n')).toEqual([
      { event: null, data: 'tight' },
      { event: null, data: ' two spaces' },
      { event: null, data: 'a: b' },
    ]);
  });

  it('takes a line without a colon as a field with an empty value', async () => {
    expect(await parse('data\n\n')).toEqual([{ event: null, data: '' }]);
  });

  it('ignores comments, id, retry and unknown fields', async () => {
    expect(await parse(': keep-alive\n:\nid: 7\nretry: 1000\nfoo: bar\ndata: x\n: another\n\n')).toEqual([{ event: null, data: 'x' }]);
  });

  it('dispatches nothing for blank lines without data, even after an event name', async () => {
    expect(await parse('\n\n: ping\n\nevent: ping\n\n\ndata: after\n\n')).toEqual([{ event: null, data: 'after' }]);
  });

  describe('when lines end in \\r\\n, \\r or \\n', () => {
    it.each([
      ['\\r\\n', '\r\n'],
      ['\\r', '\r'],
      ['\\n', '\n'],
    ])('splits lines on %s', async (_name, eol) => {
      const stream = `event: e${eol}data: a${eol}data: b${eol}${eol}data: c${eol}${eol}`;
      const expected = [
        { event: 'e', data: 'a\nb' },
        { event: null, data: 'c' },
      ];
      expect(await parse(stream)).toEqual(expected);
      expect(await parse(...bytewise(stream))).toEqual(expected);
    });

    it('takes a \\r\\n split across chunks as one line end', async () => {
      expect(await parse('data: a\r', '\ndata: b\r', '\n\r', '\n')).toEqual([{ event: null, data: 'a\nb' }]);
    });

    it('mixes line ends in one stream', async () => {
      expect(await parse('data: a\rdata: b\r\ndata: c\n\r\n')).toEqual([{ event: null, data: 'a\nb\nc' }]);
    });
  });

  describe('when the stream ends', () => {
    it('yields a last event that has no blank line after it', async () => {
      expect(await parse('data: one\n\ndata: last')).toEqual([
        { event: null, data: 'one' },
        { event: null, data: 'last' },
      ]);
      expect(await parse('event: done\ndata: last\n')).toEqual([{ event: 'done', data: 'last' }]);
    });

    it('yields nothing more for a trailing comment or event name', async () => {
      expect(await parse('data: one\n\n: bye')).toEqual([{ event: null, data: 'one' }]);
      expect(await parse('data: one\n\nevent: x')).toEqual([{ event: null, data: 'one' }]);
    });

    it('yields nothing for an empty stream', async () => {
      expect(await parse()).toEqual([]);
      expect(await parse('')).toEqual([]);
    });
  });

  describe('when UTF-8 characters are split across chunks', () => {
    it('decodes them whole', async () => {
      const stream = 'data: wörld 👋 日本\n\n';
      expect(await parse(...bytewise(stream))).toEqual([{ event: null, data: 'wörld 👋 日本' }]);
    });

    it('drops a byte order mark at the start', async () => {
      expect(await parse(Uint8Array.of(0xef), Uint8Array.of(0xbb, 0xbf), 'data: x\n\n')).toEqual([{ event: null, data: 'x' }]);
    });
  });

  it('gives the same events however the bytes are split', async () => {
    const stream =
      'event: message_start\r\ndata: {"a":"é"}\r\n\r\n: ping\n\nevent: content_block_delta\ndata: {"text":"👋"}\ndata: second\r\rdata: [DONE]\n\ndata: tail';
    const expected = await parse(stream);
    expect(expected).toEqual([
      { event: 'message_start', data: '{"a":"é"}' },
      { event: 'content_block_delta', data: '{"text":"👋"}\nsecond' },
      { event: null, data: '[DONE]' },
      { event: null, data: 'tail' },
    ]);
    expect(await parse(...bytewise(stream))).toEqual(expected);
    const bytes = encoder.encode(stream);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await parse(bytes.slice(0, cut), bytes.slice(cut))).toEqual(expected);
    }
  });
});
