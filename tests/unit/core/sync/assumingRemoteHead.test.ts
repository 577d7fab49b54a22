import { describe, expect, it } from 'vitest';
import { withHeadSymref } from '../../../../src/core/sync/assumingRemoteHead';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

function pkt(...lines: (string | null)[]): Uint8Array {
  return new TextEncoder().encode(lines.map((line) => (line === null ? '0000' : `${(line.length + 4).toString(16).padStart(4, '0')}${line}`)).join(''));
}

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe('withHeadSymref', () => {
  describe('when the advertisement names no HEAD', () => {
    it('points HEAD at the branch in the first line\'s capabilities, with lengths rewritten', () => {
      const input = pkt('# service=git-upload-pack\n', null, `${A} refs/heads/main\0multi_ack side-band-64k\n`, `${B} refs/heads/other\n`, null);
      expect(text(withHeadSymref(input, 'main'))).toBe(text(pkt('# service=git-upload-pack\n', null, `${A} refs/heads/main\0multi_ack side-band-64k symref=HEAD:refs/heads/main\n`, `${B} refs/heads/other\n`, null)));
    });

    it('changes nothing when the remote has not got the branch', () => {
      const input = pkt('# service=git-upload-pack\n', null, `${A} refs/heads/other\0multi_ack\n`, null);
      expect(withHeadSymref(input, 'main')).toBe(input);
    });
  });

  describe('when the advertisement names HEAD', () => {
    it('changes nothing', () => {
      const input = pkt('# service=git-upload-pack\n', null, `${A} HEAD\0multi_ack symref=HEAD:refs/heads/main\n`, `${A} refs/heads/main\n`, null);
      expect(withHeadSymref(input, 'main')).toBe(input);
    });
  });

  describe('when the bytes are not pkt-lines', () => {
    it('changes nothing', () => {
      const input = new TextEncoder().encode('<html>not git</html>');
      expect(withHeadSymref(input, 'main')).toBe(input);
    });
  });
});
