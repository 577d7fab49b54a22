// Electron's renderer gives Obsidian's desktop app Node's `http` and `https` through
// `window.require`; the plugin streams model answers with them (src/obsidian/obsidianHttpTransport.ts).
// This is the same pair in the page, over the host bridge: the request runs in Node
// (tests/e2e/harness/hostBridge.ts), and its body comes back chunk by chunk as it arrives.
import { callHost, fromBase64, toBase64 } from '../../helpers/obsidian/hostFs.browser';

type Listener = (...args: unknown[]) => void;

class Emitter {
  private readonly listeners = new Map<string, Listener[]>();

  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }

  protected emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) listener(...args);
  }
}

interface Opened {
  id: number;
  status: number;
  headers: Record<string, string>;
}

class ShimResponse extends Emitter {
  complete = false;
  private closed = false;

  constructor(
    private readonly request: ShimRequest,
    readonly statusCode: number,
    readonly headers: Record<string, string>,
    private readonly id: number,
  ) {
    super();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Uint8Array, void, undefined> {
    try {
      while (true) {
        const failure = this.request.failure;
        if (failure !== null) throw failure;
        const next = (await callHost('http', 'read', [this.id])) as { chunk?: string; done?: boolean; complete?: boolean };
        const after = this.request.failure;
        if (after !== null) throw after;
        this.request.activity();
        if (next.done === true) {
          this.complete = next.complete === true;
          return;
        }
        yield fromBase64(next.chunk ?? '');
      }
    } finally {
      this.close();
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }
}

class ShimRequest extends Emitter {
  failure: Error | null = null;
  private id: number | null = null;
  private response: ShimResponse | null = null;
  private timer: number | undefined;
  private timeout: { ms: number; callback: () => void } | null = null;

  constructor(
    private readonly url: string,
    private readonly options: { method?: string; headers?: Record<string, string> },
  ) {
    super();
  }

  setTimeout(ms: number, callback: () => void): this {
    this.timeout = { ms, callback };
    this.activity();
    return this;
  }

  /** Restarts the idle timer: something arrived. */
  activity(): void {
    if (this.timer !== undefined) window.clearTimeout(this.timer);
    const timeout = this.timeout;
    if (timeout !== null && this.failure === null) this.timer = window.setTimeout(timeout.callback, timeout.ms);
  }

  destroy(error?: Error): this {
    if (this.failure !== null) return this;
    this.failure = error ?? new Error('socket hang up');
    if (this.timer !== undefined) window.clearTimeout(this.timer);
    if (this.id !== null) void callHost('http', 'abort', [this.id]);
    if (this.response === null) {
      const failure = this.failure;
      queueMicrotask(() => this.emit('error', failure));
    } else this.response.close();
    return this;
  }

  end(body?: Uint8Array): void {
    const param = { url: this.url, method: this.options.method ?? 'GET', headers: this.options.headers ?? {}, body: body === undefined ? null : toBase64(body) };
    callHost('http', 'open', [param]).then(
      (value) => {
        const opened = value as Opened;
        this.id = opened.id;
        if (this.failure !== null) {
          void callHost('http', 'abort', [opened.id]);
          return;
        }
        this.activity();
        this.response = new ShimResponse(this, opened.status, opened.headers, opened.id);
        this.emit('response', this.response);
      },
      (error: unknown) => {
        if (this.failure !== null) return;
        if (this.timer !== undefined) window.clearTimeout(this.timer);
        this.emit('error', error);
      },
    );
  }
}

const shim = {
  request: (url: URL | string, options: { method?: string; headers?: Record<string, string> } = {}) => new ShimRequest(String(url), options),
};

/** Gives the page Electron's `window.require` for `http` and `https` (nothing else). */
export function installNodeHttpShim(): void {
  (window as unknown as { require: (id: string) => unknown }).require = (id: string) => {
    if (id === 'http' || id === 'https') return shim;
    throw new Error(`Cannot find module '${id}'`);
  };
}
