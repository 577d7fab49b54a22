import { deflate, deflateInit2, deflateReset } from 'pako/lib/zlib/deflate.js';
import ZStream from 'pako/lib/zlib/zstream.js';

// zlib's constants, as pako's port numbers them.
const Z_OK = 0;
const Z_STREAM_END = 1;
const Z_FINISH = 4;
const Z_DEFLATED = 8;
const Z_DEFAULT_STRATEGY = 0;
/** Output space kept between objects: a huge note's must not stay allocated. */
const KEPT_OUTPUT_BYTES = 1 << 20;

/**
 * Compresses to zlib's format at level 1 with pako, one stream per window size, reset and used
 * again for every object. pako's one-shot `deflate` allocates a new state per call (window, hash
 * chains, buffers: tens of kilobytes even for a small note), and a first snapshot of 10,000 notes
 * made that churn, and the garbage collections it brings, on a phone's main thread. A reset
 * stream gives the same bytes as a new one.
 */
export class PakoDeflater {
  private readonly streams = new Map<number, ZStream>();
  private output = new Uint8Array(0);

  deflate(bytes: Uint8Array): Uint8Array {
    // A window just large enough for the input and a smaller hash table give the same bytes as
    // zlib's defaults for note-sized blobs, and setting them up costs a fraction.
    const windowBits = Math.min(15, Math.max(9, Math.ceil(Math.log2(bytes.byteLength + 262))));
    const memLevel = bytes.byteLength < 1 << 20 ? 5 : 8;
    const stream = this.stream(windowBits, memLevel);
    stream.input = bytes;
    stream.next_in = 0;
    stream.avail_in = bytes.byteLength;
    const bound = deflateBound(bytes.byteLength);
    if (this.output.byteLength < bound) this.output = new Uint8Array(bound);
    stream.output = this.output;
    stream.next_out = 0;
    stream.avail_out = this.output.byteLength;
    try {
      const status = deflate(stream, Z_FINISH);
      if (status !== Z_STREAM_END) throw new Error(`zlib could not compress an object (status ${status}).`);
      return this.output.slice(0, stream.next_out);
    } finally {
      stream.input = null;
      stream.output = null;
      if (this.output.byteLength > KEPT_OUTPUT_BYTES) this.output = new Uint8Array(0);
    }
  }

  /** The stream for these parameters, reset; made on first use. */
  private stream(windowBits: number, memLevel: number): ZStream {
    const key = windowBits * 16 + memLevel;
    let stream = this.streams.get(key);
    if (stream === undefined) {
      stream = new ZStream();
      if (deflateInit2(stream, 1, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY) !== Z_OK) throw new Error('zlib could not start a stream.');
      this.streams.set(key, stream);
    } else if (deflateReset(stream) !== Z_OK) throw new Error('zlib could not reset a stream.');
    return stream;
  }
}

/** The most bytes `length` bytes can deflate to, with any window and memory level: zlib's own bound. */
function deflateBound(length: number): number {
  return length + ((length + 7) >>> 3) + ((length + 63) >>> 6) + 5 + 6;
}
