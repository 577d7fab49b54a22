/** One Server-Sent Event: its `event:` name (null when it had none) and its `data:` lines joined by `\n`. */
export interface SseEvent {
  event: string | null;
  data: string;
}

/**
 * Parses a Server-Sent Events stream as it arrives, following the WHATWG rules: UTF-8 (a character
 * may be split across chunks; a leading BOM is dropped), lines ending in `\r\n`, `\n` or `\r`,
 * `field: value` with one optional space after the colon, several `data:` lines joined by `\n`,
 * `:` comments and unknown fields (`id`, `retry`) ignored, and an event dispatched at each blank
 * line when it has data. Unlike the standard, a last event that the stream ends without a blank
 * line is still yielded, since some servers end that way.
 */
export async function* parseSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent, void, undefined> {
  const decoder = new TextDecoder('utf-8');
  const parser = new SseLineParser();
  for await (const chunk of body) {
    yield* parser.push(decoder.decode(chunk, { stream: true }));
  }
  yield* parser.push(decoder.decode());
  yield* parser.end();
}

class SseLineParser {
  private pending = '';
  /** The previous text ended in `\r`: a `\n` that starts the next text belongs to that line end. */
  private afterCr = false;
  private event = '';
  private data: string[] = [];

  *push(text: string): Generator<SseEvent> {
    let start = 0;
    if (this.afterCr && text.startsWith('\n')) start = 1;
    this.afterCr = false;
    for (let i = start; i < text.length; i++) {
      const char = text[i];
      if (char !== '\n' && char !== '\r') continue;
      const line = this.pending + text.slice(start, i);
      this.pending = '';
      if (char === '\r') {
        if (i + 1 === text.length) this.afterCr = true;
        else if (text[i + 1] === '\n') i++;
      }
      start = i + 1;
      const event = this.line(line);
      if (event) yield event;
    }
    this.pending += text.slice(start);
  }

  *end(): Generator<SseEvent> {
    if (this.pending !== '') {
      const event = this.line(this.pending);
      this.pending = '';
      if (event) yield event;
    }
    const event = this.line('');
    if (event) yield event;
  }

  private line(line: string): SseEvent | null {
    if (line === '') {
      const event = this.data.length === 0 ? null : { event: this.event === '' ? null : this.event, data: this.data.join('\n') };
      this.event = '';
      this.data = [];
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    return null;
  }
}
