/** What {@link readBoundedText} found: the body's text, or that it passes the limit. */
export type BoundedBody = { ok: true; text: string } | { ok: false; reason: 'too_large' };

/**
 * A request's body as text, read no further than `maxBytes`: a `Content-Length` over the limit is
 * refused before a byte is read, and a body without one (chunked) is read chunk by chunk and left
 * unread past the limit, so a huge upload costs at most `maxBytes` of memory. Every HTTP route that
 * reads a body goes through here, so none reads first and checks the size afterwards.
 *
 * @example
 * const body = await readBoundedText(request, 8 * 1024);
 * if (!body.ok) return new Response('Too large', { status: 413, headers: { Connection: 'close' } });
 */
export async function readBoundedText(request: Request, maxBytes: number): Promise<BoundedBody> {
  const declared = request.headers.get('content-length')?.trim();
  if (declared !== undefined && /^\d+$/.test(declared)) {
    if (Number(declared) > maxBytes) return { ok: false, reason: 'too_large' };
    // Framed by a length already held to the limit, the body is read in one go: on Node that reads
    // the socket directly, cheaper than a web stream per request. HTTP framing holds on the wire;
    // a Request built in process could still carry a longer body, so the size is checked again.
    const text = await request.text();
    const tooLarge = text.length * 3 > maxBytes && new TextEncoder().encode(text).byteLength > maxBytes;
    return tooLarge ? { ok: false, reason: 'too_large' } : { ok: true, text };
  }
  if (!request.body) return { ok: true, text: '' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Stop pulling: the server answers 413 and closes the connection on the rest.
      void reader.cancel().catch(() => {});
      return { ok: false, reason: 'too_large' };
    }
    chunks.push(value);
  }
  const bytes = chunks.length === 1 ? chunks[0]! : new Uint8Array(size);
  if (chunks.length !== 1) {
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
  }
  return { ok: true, text: new TextDecoder().decode(bytes) };
}
