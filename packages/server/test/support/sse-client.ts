import http from 'node:http';
import { Readable } from 'node:stream';

/** One message of a Server-Sent Events stream (comments are counted, not returned). */
export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The next message; rejects after `timeoutMs` (a failure guard, not a measurement). */
  next(timeoutMs?: number): Promise<SseMessage>;
  /** Comment lines (`: ping`) received so far. */
  comments(): number;
  close(): void;
}

/**
 * Opens an event stream with fetch and parses it as the EventSource specification says (the
 * fields a server of ours sends: id, event, data, comments). For the server's stream tests. With
 * a `host` header (a many-campus installation's campus, which fetch would not send), it is asked
 * with node:http instead.
 */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const abort = new AbortController();
  const res =
    'host' in headers
      ? await getWithHost(url, headers, abort.signal)
      : await fetch(url, { headers, signal: abort.signal });
  const queue: SseMessage[] = [];
  const waiters: ((message: SseMessage) => void)[] = [];
  let comments = 0;
  let ended: Error | null = null;
  const failWaiters: ((error: Error) => void)[] = [];
  const pump = async () => {
    if (!res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const message: SseMessage = { data: '' };
          let hasData = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments += 1;
            else if (line.startsWith('id: ')) message.id = line.slice(4);
            else if (line.startsWith('event: ')) message.event = line.slice(7);
            else if (line.startsWith('data: ')) {
              message.data += (hasData ? '\n' : '') + line.slice(6);
              hasData = true;
            }
          }
          if (!hasData) continue;
          const waiter = waiters.shift();
          failWaiters.shift();
          if (waiter) waiter(message);
          else queue.push(message);
        }
      }
      ended = new Error('the stream ended');
    } catch (error) {
      ended = error instanceof Error ? error : new Error(String(error));
    }
    for (const fail of failWaiters.splice(0)) fail(ended);
    waiters.length = 0;
  };
  void pump();
  return {
    status: res.status,
    headers: res.headers,
    comments: () => comments,
    next: (timeoutMs = 10_000) => {
      const queued = queue.shift();
      if (queued) return Promise.resolve(queued);
      if (ended) return Promise.reject(ended);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no event in time')), timeoutMs);
        waiters.push((message) => {
          clearTimeout(timer);
          resolve(message);
        });
        failWaiters.push((error) => {
          clearTimeout(timer);
          reject(error);
        });
      });
    },
    close: () => abort.abort(),
  };
}

/** A GET as fetch answers it, sent with node:http so that its Host header is the one given. */
function getWithHost(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Pick<Response, 'status' | 'headers' | 'body'>> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, signal }, (answer) => {
      const answered = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined) answered.set(name, String(value));
      }
      resolve({
        status: answer.statusCode ?? 0,
        headers: answered,
        body: Readable.toWeb(answer) as ReadableStream<Uint8Array>,
      });
    });
    request.on('error', reject);
  });
}
