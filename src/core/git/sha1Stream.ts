import { toHex } from './sha1';

/**
 * SHA-1 over data given in pieces, written from FIPS 180-4, synchronous. isomorphic-git imports
 * `sha.js/sha1.js` for the few places it hashes without Web Crypto (a pack it builds itself, and a
 * fallback where `crypto.subtle` lacks SHA-1); the plugin build puts this class in its place
 * (`esbuild.config.mjs`), which spares every plugin load sha.js's chain of helper packages and
 * their start-up work on the main thread. Recursa's own hashing goes through `sha1` (Web Crypto).
 */
export default class Sha1Stream {
  private readonly state = new Uint32Array([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);
  private readonly block = new Uint8Array(64);
  private readonly blockView = new DataView(this.block.buffer);
  private readonly words = new Uint32Array(80);
  private filled = 0;
  /** Bytes taken so far; a double holds every length below 2^53 exactly. */
  private length = 0;
  private done = false;

  /** Adds bytes (a `Uint8Array`, a `Buffer`, or an `ArrayBuffer`); returns this, as sha.js does. */
  update(data: Uint8Array | ArrayBuffer): this {
    if (this.done) throw new Error('Sha1Stream: update after digest');
    const bytes = data instanceof Uint8Array ? data : data instanceof ArrayBuffer ? new Uint8Array(data) : null;
    if (bytes === null) throw new TypeError('Sha1Stream: update takes bytes (a Uint8Array or an ArrayBuffer)');
    this.length += bytes.length;
    let at = 0;
    while (at < bytes.length) {
      const take = Math.min(64 - this.filled, bytes.length - at);
      this.block.set(bytes.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === 64) {
        this.compress();
        this.filled = 0;
      }
    }
    return this;
  }

  /** The 20-byte digest, as 40 hex digits with `'hex'`, else as bytes. Ends the stream. */
  digest(encoding?: 'hex'): Uint8Array | string {
    if (this.done) throw new Error('Sha1Stream: digest called twice');
    const bits = this.length * 8;
    this.block[this.filled++] = 0x80;
    if (this.filled > 56) {
      this.block.fill(0, this.filled);
      this.compress();
      this.filled = 0;
    }
    this.block.fill(0, this.filled, 56);
    this.blockView.setUint32(56, Math.floor(bits / 0x100000000));
    this.blockView.setUint32(60, bits >>> 0);
    this.compress();
    this.done = true;
    const out = new Uint8Array(20);
    const outView = new DataView(out.buffer);
    for (let i = 0; i < 5; i++) outView.setUint32(4 * i, this.state[i] as number);
    if (encoding === 'hex') return toHex(out);
    if (encoding !== undefined) throw new TypeError(`Sha1Stream: unknown digest encoding "${String(encoding)}"`);
    return out;
  }

  private compress(): void {
    const w = this.words;
    for (let t = 0; t < 16; t++) w[t] = this.blockView.getUint32(4 * t);
    for (let t = 16; t < 80; t++) {
      const x = (w[t - 3] as number) ^ (w[t - 8] as number) ^ (w[t - 14] as number) ^ (w[t - 16] as number);
      w[t] = (x << 1) | (x >>> 31);
    }
    const s = this.state;
    let a = s[0] as number;
    let b = s[1] as number;
    let c = s[2] as number;
    let d = s[3] as number;
    let e = s[4] as number;
    for (let t = 0; t < 80; t++) {
      let f: number;
      let k: number;
      if (t < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (t < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (t < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const temp = (((a << 5) | (a >>> 27)) + f + e + k + (w[t] as number)) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    s[0] = ((s[0] as number) + a) | 0;
    s[1] = ((s[1] as number) + b) | 0;
    s[2] = ((s[2] as number) + c) | 0;
    s[3] = ((s[3] as number) + d) | 0;
    s[4] = ((s[4] as number) + e) | 0;
  }
}
