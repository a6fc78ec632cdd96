/**
 * TEST ONLY. A local HTTP server that speaks a model provider's streaming wire protocol (OpenAI
 * Chat Completions, Anthropic Messages) and answers each request with the next turn of a script:
 * recorded tool calls, or text. It never answers a question by itself: it exists so tests can run
 * the real provider packages over real HTTP and assert what Kit sends. Not exported by the package
 * and not shipped (the package's `files` leave `src/testing` out).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One response of the script. */
export interface ScriptedTurn {
  /** Answer with this HTTP status and an error body instead of a stream. */
  status?: number;
  /** Tool calls the "model" makes. */
  toolCalls?: Array<{ name: string; input: Record<string, unknown> }>;
  /** Text, streamed one piece per chunk. */
  text?: string[];
  /** Wait this long before answering (a provider that hangs). */
  delayMs?: number;
  /** Wait this long between chunks. */
  chunkDelayMs?: number;
  /** Write only this many chunks of the stream, then cut the connection (a provider failing midway). */
  cutAfterChunks?: number;
}

/** A request the server received. */
export interface ReceivedRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** The whole body as received, for "never contains" assertions. */
  raw: string;
}

/** A turn, or a function of the request that builds one (to quote what the tools returned). */
export type ScriptStep = ScriptedTurn | ((request: ReceivedRequest) => ScriptedTurn);

export interface ScriptedProvider {
  /** Base URL to give the provider package (`…/v1`). */
  url: string;
  requests: ReceivedRequest[];
  /** Queue more turns. */
  push(...steps: ScriptStep[]): void;
  /** Turns left unanswered. */
  readonly pending: number;
  /** Drops the turns left. */
  clear(): void;
  close(): Promise<void>;
}

/**
 * Starts the scripted server on a free loopback port.
 *
 * @example
 * const provider = await startScriptedProvider('openai', [
 *   { toolCalls: [{ name: 'search_docs', input: { query: 'retry' } }] },
 *   (request) => ({ text: [`Quoting: ${toolResults(request)[0]}`] }),
 * ]);
 */
export async function startScriptedProvider(
  protocol: 'openai' | 'anthropic',
  steps: ScriptStep[] = [],
): Promise<ScriptedProvider> {
  const queue = [...steps];
  const requests: ReceivedRequest[] = [];
  let calls = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const request: ReceivedRequest = {
      path: req.url ?? '',
      headers: req.headers,
      body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
      raw,
    };
    requests.push(request);
    const step = queue.shift();
    if (!step) {
      res.writeHead(500, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'server_error', message: 'The test script has no more turns.' } }));
      return;
    }
    const turn = typeof step === 'function' ? step(request) : step;
    if (turn.delayMs) await new Promise((resolve) => setTimeout(resolve, turn.delayMs));
    if (res.destroyed) return;
    if (turn.status && turn.status >= 400) {
      res.writeHead(turn.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'server_error', message: `scripted failure ${turn.status}` } }));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const events = protocol === 'openai' ? openAiEvents(turn, ++calls) : anthropicEvents(turn, ++calls);
    for (const [index, event] of events.entries()) {
      if (res.destroyed) return;
      if (index === turn.cutAfterChunks) {
        // What was written reaches the client first, then the connection drops.
        await new Promise((resolve) => res.write('', resolve));
        res.socket?.destroy();
        return;
      }
      res.write(event);
      if (turn.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, turn.chunkDelayMs));
    }
    res.end();
  };
  // Longer than any pause of a test between two calls, so a kept-alive connection is never cut under one.
  server.keepAliveTimeout = 120_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    push: (...more) => queue.push(...more),
    get pending() {
      return queue.length;
    },
    clear: () => {
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function openAiEvents(turn: ScriptedTurn, call: number): string[] {
  const base = { id: `chatcmpl-${call}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: 'scripted' };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const out = [chunk({ role: 'assistant', content: '' })];
  for (const piece of turn.text ?? []) out.push(chunk({ content: piece }));
  for (const [index, toolCall] of (turn.toolCalls ?? []).entries()) {
    out.push(
      chunk({
        tool_calls: [
          {
            index,
            id: `call_${call}_${index}`,
            type: 'function',
            function: { name: toolCall.name, arguments: JSON.stringify(toolCall.input) },
          },
        ],
      }),
    );
  }
  out.push(chunk({}, turn.toolCalls?.length ? 'tool_calls' : 'stop'));
  out.push(
    `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } })}\n\n`,
  );
  out.push('data: [DONE]\n\n');
  return out;
}

function anthropicEvents(turn: ScriptedTurn, call: number): string[] {
  const event = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const out = [
    event('message_start', {
      message: {
        id: `msg_${call}`,
        type: 'message',
        role: 'assistant',
        content: [],
        model: 'scripted',
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  if (turn.text?.length) {
    out.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const piece of turn.text)
      out.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    out.push(event('content_block_stop', { index }));
    index += 1;
  }
  for (const [n, toolCall] of (turn.toolCalls ?? []).entries()) {
    out.push(
      event('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: `toolu_${call}_${n}`, name: toolCall.name, input: {} },
      }),
    );
    out.push(
      event('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(toolCall.input) },
      }),
    );
    out.push(event('content_block_stop', { index }));
    index += 1;
  }
  out.push(
    event('message_delta', {
      delta: { stop_reason: turn.toolCalls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    }),
  );
  out.push(event('message_stop', {}));
  return out;
}

/**
 * The tool results a request carries back to the model, newest last, as text (OpenAI `tool`
 * messages; Anthropic `tool_result` blocks).
 */
export function toolResults(request: ReceivedRequest): string[] {
  const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  const out: string[] = [];
  for (const message of messages) {
    if (message.role === 'tool' && typeof message.content === 'string') out.push(message.content);
    if (Array.isArray(message.content)) {
      for (const block of message.content as Array<{ type?: string; content?: unknown }>) {
        if (block.type !== 'tool_result') continue;
        out.push(typeof block.content === 'string' ? block.content : JSON.stringify(block.content));
      }
    }
  }
  return out;
}

/** The names of the tools a request offers the model. */
export function offeredTools(request: ReceivedRequest): string[] {
  const tools = (request.body.tools ?? []) as Array<{ name?: string; function?: { name?: string } }>;
  return tools.map((tool) => tool.function?.name ?? tool.name ?? '').filter(Boolean);
}
