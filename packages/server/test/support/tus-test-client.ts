import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { UPLOAD_CHUNK_BYTES } from '@campus-books/common/constants';

/** A minimal tus 1.0 client over app.inject (test support; the protocol as docs/api/uploads.md has it). */

const TUS = { 'tus-resumable': '1.0.0' };

export interface TusAnswer {
  statusCode: number;
  body: string;
  json: () => Record<string, unknown>;
  headers: Record<string, unknown>;
}

// What the last PATCH of an upload answers (docs/api/uploads.md): the image's id and address. Uploads
// are tus, outside the route table, so a suite reads them through this schema rather than a cast.
const uploadedImageSchema = z.object({ _id: z.string(), url: z.string() });

/** The image an upload's last answer names; throws when the answer does not name one. */
export function uploadedImage(answer: TusAnswer): z.infer<typeof uploadedImageSchema> {
  return uploadedImageSchema.parse(answer.json());
}

function answer(res: {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}): TusAnswer {
  return {
    statusCode: res.statusCode,
    body: res.body,
    headers: res.headers,
    json: () => JSON.parse(res.body) as Record<string, unknown>,
  };
}

export async function createUpload(
  app: FastifyInstance,
  cookie: string | undefined,
  length: number,
  filename = 'photo.jpg',
): Promise<TusAnswer & { location?: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/uploads',
    headers: {
      ...TUS,
      ...(cookie ? { cookie } : {}),
      'upload-length': String(length),
      'upload-metadata': `filename ${Buffer.from(filename).toString('base64')},filetype aW1hZ2UvanBlZw==`,
    },
  });
  const location = res.headers.location as string | undefined;
  return { ...answer(res), location };
}

export async function patchUpload(
  app: FastifyInstance,
  cookie: string,
  location: string,
  offset: number,
  chunk: Buffer,
): Promise<TusAnswer> {
  const res = await app.inject({
    method: 'PATCH',
    url: location,
    headers: {
      ...TUS,
      cookie,
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    payload: chunk,
  });
  return answer(res);
}

export async function headUpload(app: FastifyInstance, cookie: string, location: string) {
  const res = await app.inject({ method: 'HEAD', url: location, headers: { ...TUS, cookie } });
  return { ...answer(res), offset: Number(res.headers['upload-offset']) };
}

export async function deleteUpload(app: FastifyInstance, cookie: string, location: string) {
  return answer(await app.inject({ method: 'DELETE', url: location, headers: { ...TUS, cookie } }));
}

/** Creates an upload and sends it in 256 KB chunks; the last answer is the processing result. */
export async function uploadImage(
  app: FastifyInstance,
  cookie: string,
  bytes: Buffer,
  filename = 'photo.jpg',
): Promise<TusAnswer & { location?: string }> {
  const created = await createUpload(app, cookie, bytes.length, filename);
  if (created.statusCode !== 201 || !created.location) return created;
  let last: TusAnswer = created;
  for (let offset = 0; offset < bytes.length; offset += UPLOAD_CHUNK_BYTES) {
    const chunk = bytes.subarray(offset, offset + UPLOAD_CHUNK_BYTES);
    last = await patchUpload(app, cookie, created.location, offset, chunk);
    if (last.statusCode >= 300) break;
  }
  return { ...last, location: created.location };
}
