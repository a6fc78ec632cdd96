import type { Readable, Writable } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The client end of an MCP stdio connection over a pair of streams: what the SDK's stdio client
 * does with a child process's pipes, for a `kit mcp` run in this process (`runCli` with its own
 * stdin and stdout). Closing it ends the server's stdin, which stops the server.
 */
export class StreamClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();

  /** `fromServer`: the server's stdout; `toServer`: its stdin. */
  constructor(
    private readonly fromServer: Readable,
    private readonly toServer: Writable,
  ) {}

  async start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      try {
        for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) {
          this.onmessage?.(message);
        }
      } catch (error) {
        this.onerror?.(error as Error);
      }
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}
