import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { HttpTransport } from '../../src/core/ports/http';

/** An answer: streamed when the request asks for `stream: true`, else one JSON document. */
export interface TextReply {
  text: string;
  /** Sizes of the streamed pieces, in characters (code points), used in turn. Default `[4]`. */
  chunkSizes?: number[];
  /** Wait before each streamed piece. */
  delayMs?: number;
  /** Default: 10 input tokens, one output token per streamed piece. */
  usage?: { inputTokens: number; outputTokens: number };
  /** `stop` (Anthropic: `end_turn`) or `length` (Anthropic: `max_tokens`). Default `stop`. */
  finishReason?: 'stop' | 'length';
  /** Cut the connection after this many streamed pieces. */
  dropAfterChunks?: number;
  /** After the pieces, send this error inside the stream instead of finishing. */
  streamError?: { type: string; message: string };
}

/** An HTTP error with the wire format's own error body (or `body`, sent as is or as JSON). */
export interface FailureReply {
  status: 400 | 401 | 403 | 404 | 429 | 500 | 503 | 529;
  /** The `retry-after` header. */
  retryAfter?: string | number;
  body?: string | object;
}

/** Any status, content type and body, for answers that are not what the format promises. */
export interface RawReply {
  raw: string;
  status?: number;
  contentType?: string;
}

/** What the server does with one request; replies are used in order, whichever endpoint is hit. */
export type ScriptedReply = TextReply | FailureReply | RawReply | { hang: true } | { dropConnection: true };

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** The parsed JSON body (the raw text when it is not JSON). */
  body: unknown;
}

/** The messages of a recorded OpenAI-style request. */
export function messagesOf(request: RecordedRequest | undefined): { role: string; content: string }[] {
  return (request?.body as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? [];
}

/** The system prompt the model received. */
export const systemOf = (request: RecordedRequest | undefined): string => messagesOf(request).find((message) => message.role === 'system')?.content ?? '';

/** The last user message the model received (the request, or the result of the previous turn). */
export const lastUserOf = (request: RecordedRequest | undefined): string => messagesOf(request).filter((message) => message.role === 'user').at(-1)?.content ?? '';

export interface ModelServer {
  /** `http://127.0.0.1:<port>`; OpenAI clients use `${url}/v1` as their base URL, Anthropic clients `url`. */
  url: string;
  /** Sets the replies for the next requests, dropping any still queued (`script([])` clears). */
  script(replies: ScriptedReply[]): void;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type Format = 'openai' | 'anthropic';

/**
 * Starts a scripted LLM server on 127.0.0.1 (a free port) that speaks OpenAI's Chat Completions
 * (`POST /v1/chat/completions`) and Anthropic's Messages API (`POST /v1/messages`) byte for byte as
 * those services do: the same SSE framing, event order and fields, and the same error bodies.
 * The official SDKs consume it (`tests/unit/helpers/modelServer.test.ts`).
 */
export async function startModelServer(): Promise<ModelServer> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (chunk: Buffer) => parts.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(parts).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Recorded as text.
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      requests.push({ method: req.method ?? 'GET', path, headers, body });
      res.on('error', () => undefined);
      const format: Format | null =
        req.method === 'POST' && path === '/v1/chat/completions' ? 'openai' : req.method === 'POST' && path === '/v1/messages' ? 'anthropic' : null;
      if (format === null) {
        sendJson(res, 404, { error: `model server: no route for ${req.method} ${path}` });
        return;
      }
      const reply = queue.shift();
      if (reply === undefined) {
        sendJson(res, 500, { error: { message: 'model server: no scripted reply left for this request', type: 'server_error' } });
        return;
      }
      void answer(format, reply, body, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    script: (replies) => void queue.splice(0, queue.length, ...replies),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * `transport` as one that cannot stream, like Obsidian's `requestUrl`: the whole body arrives at
 * once, after the response has ended.
 */
export function withoutStreaming(transport: HttpTransport): HttpTransport {
  return {
    streams: false,
    async request(request) {
      const response = await transport.request(request);
      const parts: Uint8Array[] = [];
      for await (const part of response.body) parts.push(part);
      const whole = Buffer.concat(parts);
      return { ...response, body: (async function* () { yield whole; })() };
    },
  };
}

/** `http://127.0.0.1:<port>` for a port that was free a moment ago and has nothing listening. */
export async function closedPortUrl(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function answer(format: Format, reply: ScriptedReply, body: unknown, res: http.ServerResponse): Promise<void> {
  if ('hang' in reply) return;
  if ('dropConnection' in reply) {
    res.socket?.destroy();
    return;
  }
  if ('raw' in reply) {
    res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json' });
    res.end(reply.raw);
    return;
  }
  if ('status' in reply) {
    const headers: Record<string, string> = {};
    if (reply.retryAfter !== undefined) headers['retry-after'] = String(reply.retryAfter);
    const model = stringField(body, 'model') ?? 'unknown';
    const errorBody = reply.body ?? (format === 'openai' ? openAiErrorBody(reply.status, model) : anthropicErrorBody(reply.status, model));
    if (format === 'anthropic') headers['request-id'] = requestId();
    else headers['x-request-id'] = `req_${hex(16)}`;
    if (typeof errorBody === 'string') {
      res.writeHead(reply.status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
      res.end(errorBody);
    } else sendJson(res, reply.status, errorBody, headers);
    return;
  }
  const stream = typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
  const pieces = split(reply.text, reply.chunkSizes ?? [4]);
  const usage = reply.usage ?? { inputTokens: 10, outputTokens: pieces.length };
  const model = stringField(body, 'model') ?? 'unknown';
  if (format === 'openai') {
    if (stream) await streamOpenAi(res, reply, pieces, usage, model, body);
    else sendJson(res, 200, openAiCompletion(reply, usage, model), { 'x-request-id': `req_${hex(16)}` });
  } else if (stream) await streamAnthropic(res, reply, pieces, usage, model);
  else sendJson(res, 200, anthropicMessage(reply, usage, model), { 'request-id': requestId() });
}

type Usage = { inputTokens: number; outputTokens: number };

// ---- OpenAI Chat Completions ----

async function streamOpenAi(res: http.ServerResponse, reply: TextReply, pieces: string[], usage: Usage, model: string, body: unknown): Promise<void> {
  const streamOptions = (body as { stream_options?: { include_usage?: unknown; include_obfuscation?: unknown } }).stream_options;
  const includeUsage = streamOptions?.include_usage === true;
  const obfuscate = streamOptions?.include_obfuscation !== false;
  const id = `chatcmpl-${base62(29)}`;
  const created = Math.floor(Date.now() / 1000);
  const fingerprint = `fp_${hex(10)}`;
  const chunk = (choices: object[], extra: object = {}): string =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model,
      service_tier: 'default',
      system_fingerprint: fingerprint,
      choices,
      ...(includeUsage ? { usage: null } : {}),
      ...extra,
    })}\n\n`;
  const delta = (value: object, finishReason: string | null = null): object => ({ index: 0, delta: value, logprobs: null, finish_reason: finishReason });
  const pad = (): object => (obfuscate ? { obfuscation: base62(4 + Math.floor(Math.random() * 8)) } : {});

  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-request-id': `req_${hex(16)}` });
  res.write(chunk([delta({ role: 'assistant', content: '', refusal: null })], pad()));
  const sent = await writePieces(res, reply, pieces, (piece) => chunk([delta({ content: piece })], pad()));
  if (!sent) return;
  if (reply.streamError !== undefined) {
    res.end(`data: ${JSON.stringify({ error: { message: reply.streamError.message, type: reply.streamError.type, param: null, code: null } })}\n\n`);
    return;
  }
  res.write(chunk([delta({}, reply.finishReason ?? 'stop')], pad()));
  if (includeUsage) res.write(chunk([], { usage: openAiUsage(usage) }));
  res.end('data: [DONE]\n\n');
}

function openAiCompletion(reply: TextReply, usage: Usage, model: string): object {
  return {
    id: `chatcmpl-${base62(29)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.text, refusal: null, annotations: [] },
        logprobs: null,
        finish_reason: reply.finishReason ?? 'stop',
      },
    ],
    usage: openAiUsage(usage),
    service_tier: 'default',
    system_fingerprint: `fp_${hex(10)}`,
  };
}

function openAiUsage(usage: Usage): object {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function openAiErrorBody(status: FailureReply['status'], model: string): object {
  const error = (message: string, type: string, code: string | null): object => ({ error: { message, type, param: null, code } });
  switch (status) {
    case 400:
      return error("Invalid value for 'temperature': expected a number between 0 and 2.", 'invalid_request_error', 'invalid_value');
    case 401:
      return error('Incorrect API key provided: sk-dummy. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key');
    case 403:
      return error('You are not allowed to sample from this model', 'invalid_request_error', null);
    case 404:
      return error(`The model \`${model}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found');
    case 429:
      return error(`Rate limit reached for ${model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.`, 'requests', 'rate_limit_exceeded');
    case 500:
      return error('The server had an error while processing your request. Sorry about that!', 'server_error', null);
    case 503:
    case 529:
      return error('The engine is currently overloaded, please try again later', 'server_error', null);
  }
}

// ---- Anthropic Messages ----

async function streamAnthropic(res: http.ServerResponse, reply: TextReply, pieces: string[], usage: Usage, model: string): Promise<void> {
  const event = (name: string, data: object): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': requestId() });
  res.write(
    event('message_start', {
      type: 'message_start',
      message: {
        model,
        id: messageId(),
        type: 'message',
        role: 'assistant',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...anthropicUsage(usage.inputTokens, Math.min(1, usage.outputTokens)) },
      },
    }),
  );
  res.write(event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }));
  res.write(event('ping', { type: 'ping' }));
  const sent = await writePieces(res, reply, pieces, (piece) =>
    event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }),
  );
  if (!sent) return;
  if (reply.streamError !== undefined) {
    res.end(event('error', { type: 'error', error: { type: reply.streamError.type, message: reply.streamError.message } }));
    return;
  }
  res.write(event('content_block_stop', { type: 'content_block_stop', index: 0 }));
  res.write(
    event('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: anthropicStopReason(reply), stop_sequence: null },
      usage: { input_tokens: usage.inputTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: usage.outputTokens },
    }),
  );
  res.end(event('message_stop', { type: 'message_stop' }));
}

function anthropicMessage(reply: TextReply, usage: Usage, model: string): object {
  return {
    model,
    id: messageId(),
    type: 'message',
    role: 'assistant',
    content: [{ type: 'text', text: reply.text }],
    stop_reason: anthropicStopReason(reply),
    stop_sequence: null,
    usage: anthropicUsage(usage.inputTokens, usage.outputTokens),
  };
}

function anthropicUsage(inputTokens: number, outputTokens: number): object {
  return {
    input_tokens: inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

function anthropicStopReason(reply: TextReply): string {
  return reply.finishReason === 'length' ? 'max_tokens' : 'end_turn';
}

function anthropicErrorBody(status: FailureReply['status'], model: string): object {
  const error = (type: string, message: string): object => ({ type: 'error', error: { type, message }, request_id: requestId() });
  switch (status) {
    case 400:
      return error('invalid_request_error', 'temperature: range: 0..1');
    case 401:
      return error('authentication_error', 'invalid x-api-key');
    case 403:
      return error('permission_error', 'Your API key does not have permission to use the specified resource.');
    case 404:
      return error('not_found_error', `model: ${model}`);
    case 429:
      return error('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit');
    case 500:
      return error('api_error', 'Internal server error');
    case 503:
    case 529:
      return error('overloaded_error', 'Overloaded');
  }
}

// ---- shared ----

/** Writes each piece (after `delayMs`); false when the stream ended early (dropped, or the client left). */
async function writePieces(res: http.ServerResponse, reply: TextReply, pieces: string[], frame: (piece: string) => string): Promise<boolean> {
  for (const [index, piece] of pieces.entries()) {
    if (index === reply.dropAfterChunks) break;
    if (reply.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed || res.socket === null || res.socket.destroyed) return false;
    res.write(frame(piece));
  }
  if (reply.dropAfterChunks === undefined) return true;
  // `end`, not `destroy`: the pieces already written must reach the client before the cut.
  res.socket?.end();
  return false;
}

function split(text: string, sizes: number[]): string[] {
  const chars = Array.from(text);
  const pieces: string[] = [];
  for (let at = 0, turn = 0; at < chars.length; turn++) {
    const size = Math.max(1, sizes[turn % sizes.length] ?? 4);
    pieces.push(chars.slice(at, at + size).join(''));
    at += size;
  }
  return pieces;
}

function sendJson(res: http.ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function stringField(value: unknown, name: string): string | undefined {
  const field = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  return typeof field === 'string' ? field : undefined;
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function base62(length: number): string {
  return Array.from(randomBytes(length), (byte) => BASE62[byte % 62]).join('');
}

function hex(length: number): string {
  return randomBytes(Math.ceil(length / 2)).toString('hex').slice(0, length);
}

function messageId(): string {
  return `msg_01${base62(22)}`;
}

function requestId(): string {
  return `req_011${base62(21)}`;
}
