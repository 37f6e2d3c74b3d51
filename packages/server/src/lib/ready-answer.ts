import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { accepts, matchesEtag } from './content-negotiation';
import { keptBytes, keptText } from './kept-bytes';

/** Encodings a kept answer is sent in, the client's first accepted one chosen (br before gzip). */
const CODINGS = ['br', 'gzip'] as const;
type Coding = (typeof CODINGS)[number] | 'identity';

/** The 304 of a route whose answers may be ready answers (declared beside its 200). */
export const notModifiedResponse = {
  304: z.undefined().describe("Not modified: If-None-Match names this answer's ETag"),
};

/** Answers below this many bytes go uncompressed (the compression plugin's threshold). */
export const COMPRESS_THRESHOLD = 1024;

interface Variant {
  body: Buffer;
  etag: string;
}

const etagOf = (body: Buffer) =>
  `"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;

/**
 * Brotli at quality 5 with the size as a hint (an 8.6 KB search answer in ~0.1 ms to ~1.8 KB) and
 * gzip at level 6: an answer kept in memory is compressed once per encoding and sent many times, so
 * it is worth more than the compression plugin's quality 1, which runs on every answer it sends.
 */
function compress(text: string, bytes: number, coding: Exclude<Coding, 'identity'>): Buffer {
  if (coding === 'gzip') return keptBytes(gzipSync(text, { level: 6 }));
  return keptBytes(
    brotliCompressSync(text, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  );
}

/** What the room counts for the ready answer of a text of `length` bytes (ReadyAnswer.roomBytes). */
export const readyRoomBytes = (length: number): number => Math.ceil(length * 2.5);

const JSON_TYPE = 'application/json; charset=utf-8';
/** The headers of the answers with no others, shared: one object for all, not one per answer. */
const SHARED_HEADERS = {
  compressible: Object.freeze({ 'content-type': JSON_TYPE, vary: 'Accept-Encoding' }),
  small: Object.freeze({ 'content-type': JSON_TYPE }),
};

/**
 * An answer kept as bytes ready to send (docs/performance.md, "Cached answers as ready bytes"): the
 * JSON text the route's serializer wrote, each encoding (the text's own bytes too) made the first
 * time a client asks for it, with a strong ETag per encoding. Sending it serializes nothing and compresses nothing: it sets
 * Content-Encoding, which the compression plugin leaves alone, and answers 304 to an If-None-Match
 * that names its tag.
 */
export class ReadyAnswer {
  /** The answer's JSON text. */
  readonly json: string;
  /** The text's length in UTF-8. */
  readonly #length: number;
  // Each encoding in a field of its own, not a record of them: one object fewer to reach.
  #br: Variant | undefined;
  #gzip: Variant | undefined;
  #identity: Variant | undefined;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #isCompressible: boolean;

  /**
   * `json`: the answer's text, exactly as the route's serializer gives it (`reply.serialize`);
   * `headers`: what else every answer of it carries (lower-case names).
   */
  constructor(json: string, headers: Record<string, string> = {}) {
    this.json = json;
    this.#length = Buffer.byteLength(json, 'utf8');
    this.#isCompressible = this.#length >= COMPRESS_THRESHOLD;
    const shared = this.#isCompressible ? SHARED_HEADERS.compressible : SHARED_HEADERS.small;
    this.#headers = Object.keys(headers).length === 0 ? shared : { ...shared, ...headers };
  }

  /**
   * What a cache's room counts for it (campus-cache-scope.ts), from its first keeping on: its text
   * twice (the string, and its bytes should a client ask for them uncompressed) and about half
   * again for its compressed copies, all made later.
   */
  get roomBytes(): number {
    return readyRoomBytes(this.#length);
  }

  /** The body in `coding`, made (and kept) the first time it is asked for. */
  variant(coding: Coding): Variant {
    switch (coding) {
      case 'br':
        return (this.#br ??= this.#made(coding));
      case 'gzip':
        return (this.#gzip ??= this.#made(coding));
      default:
        return (this.#identity ??= this.#made(coding));
    }
  }

  #made(coding: Coding): Variant {
    const body =
      coding === 'identity' ? keptText(this.json) : compress(this.json, this.#length, coding);
    return { body, etag: etagOf(body) };
  }

  /** The encoding this request gets: its first accepted of br and gzip, else none. */
  codingFor(request: FastifyRequest): Coding {
    const acceptEncoding = request.headers['accept-encoding'];
    if (!this.#isCompressible || !acceptEncoding) return 'identity';
    return CODINGS.find((coding) => accepts(acceptEncoding, coding)) ?? 'identity';
  }

  /** Sends the answer (200 with its bytes, or 304 when the client holds this version). */
  send(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const coding = this.codingFor(request);
    const { body, etag } = this.variant(coding);
    void reply.headers(this.#headers).header('etag', etag);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch && matchesEtag(ifNoneMatch, etag)) {
      reply.removeHeader('content-type');
      return reply.code(304).send();
    }
    if (coding !== 'identity') void reply.header('content-encoding', coding);
    // The route's typed send expects the schema's object; these bytes are that object's JSON.
    return reply.send(body as never);
  }
}
