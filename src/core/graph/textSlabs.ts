/** Texts are written into buffers of this size, one after another; a longer text gets a buffer of its own. */
const SLAB_BYTES = 1 << 20;

const encoder = new TextEncoder();

/** A buffer texts are appended to. Bytes once written never change, so a span stays readable while held. */
export class Slab {
  /** Bytes of the texts still in use (see `TextSlabs.release`). */
  live = 0;

  /** @param used bytes written so far: none in a new buffer, all of them in one already filled. */
  constructor(
    readonly bytes: Uint8Array,
    public used = 0,
  ) {}
}

/** Where a text is: bytes `start` up to `end` of a slab. Moved (changed in place) when its slab is emptied. */
export interface TextSpan {
  slab: Slab;
  start: number;
  end: number;
}

/**
 * Texts as UTF-8, many to a shared buffer (a "slab"). A buffer and a view for each of a vault's
 * notes cost about 180 bytes of objects beside its text, 9 MB at 50,000 notes; a span is three
 * fields of the note. A text replaced or let go leaves its bytes unused in its slab; once a slab
 * other than the one being written is less than half in use, the texts still in it are moved to
 * the current slab (their spans changed in place), and nothing holds it any more.
 */
export class TextSlabs {
  private current: Slab;

  /** @param spans every span held (the owner's notes), for moving those of a slab being emptied. */
  constructor(
    private readonly spans: () => Iterable<TextSpan>,
    private readonly slabBytes = SLAB_BYTES,
  ) {
    this.current = new Slab(new Uint8Array(slabBytes));
  }

  /** Writes `text` as UTF-8 into the current slab (or a new one) and holds it. */
  write(text: string): TextSpan {
    // A UTF-16 code unit is at most 3 bytes of UTF-8.
    if (text.length * 3 > this.slabBytes) return this.hold(ownSpan(encoder.encode(text)));
    const { read, written } = encoder.encodeInto(text, this.current.bytes.subarray(this.current.used));
    if (read === text.length) return this.hold(this.append(written));
    const full = this.current;
    this.current = new Slab(new Uint8Array(this.slabBytes));
    const span = this.hold(this.append(encoder.encodeInto(text, this.current.bytes).written));
    this.emptyIfSparse(full);
    return span;
  }

  /** A slab over bytes already read (a saved index's texts), every text in it to be `hold`. */
  adopt(bytes: Uint8Array): Slab {
    return new Slab(bytes, bytes.length);
  }

  /** Counts a span as in use. */
  hold<Span extends TextSpan>(span: Span): Span {
    span.slab.live += span.end - span.start;
    return span;
  }

  /** Counts a span as no longer in use (its owner no longer lists it), emptying its slab if that leaves it sparse. */
  release(span: TextSpan): void {
    span.slab.live -= span.end - span.start;
    if (span.slab !== this.current) this.emptyIfSparse(span.slab);
  }

  /** Moves the texts still in a slab less than half in use to the current slab. */
  private emptyIfSparse(slab: Slab): void {
    if (slab.live === 0 || slab.live >= slab.used / 2) return;
    for (const span of this.spans()) if (span.slab === slab) this.move(span);
  }

  private move(span: TextSpan): void {
    const length = span.end - span.start;
    const bytes = span.slab.bytes.subarray(span.start, span.end);
    span.slab.live -= length;
    let moved: TextSpan;
    if (length > this.slabBytes) moved = ownSpan(bytes.slice());
    else {
      // The slab left behind here just took moved texts: it is not emptied in turn.
      if (this.current.used + length > this.slabBytes) this.current = new Slab(new Uint8Array(this.slabBytes));
      this.current.bytes.set(bytes, this.current.used);
      moved = this.append(length);
    }
    Object.assign(span, this.hold(moved));
  }

  /** The span of the `length` bytes just written at the end of the current slab. */
  private append(length: number): TextSpan {
    const slab = this.current;
    const start = slab.used;
    slab.used += length;
    return { slab, start, end: slab.used };
  }
}

function ownSpan(bytes: Uint8Array): TextSpan {
  return { slab: new Slab(bytes, bytes.length), start: 0, end: bytes.length };
}

/** A span's bytes (a view, not a copy). */
export function bytesOf(span: TextSpan): Uint8Array {
  return span.slab.bytes.subarray(span.start, span.end);
}
