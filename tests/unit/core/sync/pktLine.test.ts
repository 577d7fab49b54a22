import { describe, expect, it } from 'vitest';
import { joinPktLines, pktLine, PktLineError, pktLines, readPktLines } from '../../../../src/core/sync/pktLine';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (line: Uint8Array | null): string | null => (line === null ? null : new TextDecoder().decode(line));

async function readAll(chunks: Uint8Array[]): Promise<(string | null)[]> {
  const lines: (string | null)[] = [];
  for await (const line of readPktLines(chunks)) lines.push(text(line));
  return lines;
}

describe('pktLine', () => {
  it('frames a payload with its length in four hex digits, the digits included', () => {
    expect(text(pktLine('unpack ok\n'))).toBe('000eunpack ok\n');
    expect(text(pktLine(new Uint8Array(0)))).toBe('0004');
  });

  it('parses lines and flush packets, and frames them back the same', () => {
    const input = bytes('000eunpack ok\n00000009abcd\n0000');
    const lines = pktLines(input);
    expect(lines?.map(text)).toEqual(['unpack ok\n', null, 'abcd\n', null]);
    expect(text(joinPktLines(lines ?? []))).toBe(text(input));
  });

  it('answers null for bytes that are not pkt-lines', () => {
    expect(pktLines(bytes('<html>'))).toBeNull();
    expect(pktLines(bytes('0010short'))).toBeNull();
    expect(pktLines(bytes('0001'))).toBeNull();
  });

  describe('readPktLines', () => {
    it('reads lines split anywhere across chunks', async () => {
      const whole = '000eunpack ok\n00000017ok refs/heads/main\n0000';
      for (let cut = 1; cut < whole.length; cut++) {
        expect(await readAll([bytes(whole.slice(0, cut)), bytes(whole.slice(cut))])).toEqual(['unpack ok\n', null, 'ok refs/heads/main\n', null]);
      }
    });

    it('fails on a bad length and on an answer that ends inside a line', async () => {
      await expect(readAll([bytes('zzzz')])).rejects.toBeInstanceOf(PktLineError);
      await expect(readAll([bytes('000eunpack')])).rejects.toThrow('ended inside a pkt-line');
    });
  });
});
