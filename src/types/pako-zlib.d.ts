/**
 * pako's zlib port, below its one-shot API: a deflate stream that can be reset and used again
 * (pako ships these files; `@types/pako` types only the one-shot API).
 */
declare module 'pako/lib/zlib/zstream.js' {
  class ZStream {
    input: Uint8Array | null;
    next_in: number;
    avail_in: number;
    total_in: number;
    output: Uint8Array | null;
    next_out: number;
    avail_out: number;
    total_out: number;
  }
  export default ZStream;
}

declare module 'pako/lib/zlib/deflate.js' {
  import type ZStream from 'pako/lib/zlib/zstream.js';
  export function deflateInit2(strm: ZStream, level: number, method: number, windowBits: number, memLevel: number, strategy: number): number;
  export function deflate(strm: ZStream, flush: number): number;
  export function deflateReset(strm: ZStream): number;
}
