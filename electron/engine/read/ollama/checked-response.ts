// What Ollama sent, checked before the `ollama` library reads it. The library skips a stream line
// that is not JSON with a `console.warn` (so a cut-off or garbled stream becomes noise on the
// user's terminal and a silently shorter reply) and logs on stdout when an error body is not JSON.
// Here, instead:
// - an error reply (4xx/5xx) is handed on as `{"error": ...}` JSON, its text kept as the message;
// - a streamed reply (NDJSON) is passed on line by line, and a line that is not JSON, or a last
//   line cut off mid-way, fails the read with `MalformedReply` saying which line and what.

/** A reply that is not what Ollama's API sends: the client reports it as a malformed reply. */
export class MalformedReply extends Error {
  override name = 'MalformedReply';
}

const snippet = (s: string): string => JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}...` : s);

function isJson(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

async function errorAsJson(res: Response): Promise<Response> {
  let text = '';
  try {
    text = await res.text();
  } catch {
    // The body could not be read (connection dropped): the status says enough.
  }
  let message = text.trim().slice(0, 500);
  try {
    const j = JSON.parse(text) as { error?: unknown };
    if (typeof j?.error === 'string') message = j.error;
  } catch {
    // Not JSON (a proxy's HTML page, plain text): its text is the message.
  }
  return new Response(JSON.stringify({ error: message || `HTTP ${res.status} ${res.statusText}`.trim() }), {
    status: res.status,
    statusText: res.statusText,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

function checkedStream(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const decoder = new TextDecoder('utf-8');
  const encoder = new TextEncoder();
  let buffer = '';
  let line = 0;
  const pass = (text: string, controller: TransformStreamDefaultController<Uint8Array>): void => {
    line++;
    if (text.trim() !== '' && !isJson(text)) throw new MalformedReply(`line ${line} of the reply stream is not JSON: ${snippet(text)}`);
    controller.enqueue(encoder.encode(`${text}\n`));
  };
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        buffer += decoder.decode(chunk, { stream: true });
        const parts = buffer.split('\n');
        buffer = parts.pop() ?? '';
        for (const p of parts) pass(p, controller);
      },
      flush(controller) {
        buffer += decoder.decode();
        if (buffer.trim() === '') return;
        if (!isJson(buffer)) throw new MalformedReply(`the reply stream was cut off in the middle of line ${line + 1} (truncated): ${snippet(buffer)}`);
        pass(buffer, controller);
      },
    }),
  );
}

/** The response as the library should see it (see the head of this file). */
export async function checkedResponse(res: Response): Promise<Response> {
  if (!res.ok) return errorAsJson(res);
  if (!res.body || !/ndjson/i.test(res.headers.get('content-type') ?? '')) return res;
  return new Response(checkedStream(res.body), { status: res.status, statusText: res.statusText, headers: res.headers });
}
