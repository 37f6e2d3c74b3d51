import { DetailedError, Upload } from 'tus-js-client';
import { UPLOAD_CHUNK_BYTES } from '@campus-books/common/constants';
import { UPLOAD_ENDPOINT, imageUrl } from '@campus-books/common/images';
import { MESSAGES } from '@campus-books/common/messages';

export interface ImageUploadHandlers {
  onProgress(percent: number): void;
  onSuccess(url: string): void;
  /** `canResume`: the connection failed (resume may work); otherwise the server refused the image. */
  onError(message: string, canResume: boolean): void;
}

const NETWORK_MESSAGE = 'The upload was interrupted: check your connection, then press Resume';

/** The server's message from a failed tus request (our API error shape), or a plain fallback. */
export function uploadErrorMessage(error: Error | DetailedError): string {
  const response = error instanceof DetailedError ? error.originalResponse : null;
  if (!response) return NETWORK_MESSAGE;
  try {
    const body = JSON.parse(response.getBody()) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: fall through to the status
  }
  if (response.getStatus() === 413) return MESSAGES.imageTooLarge;
  if (response.getStatus() === 401) return 'Please sign in to upload images';
  return 'Image upload failed, please try again';
}

/** One image sent over tus in 256 KB chunks; start() begins or resumes, abort() pauses. */
export function createImageUpload(file: Blob, name: string, handlers: ImageUploadHandlers): Upload {
  const upload: Upload = new Upload(file, {
    endpoint: UPLOAD_ENDPOINT,
    chunkSize: UPLOAD_CHUNK_BYTES,
    retryDelays: [0, 1000, 3000, 5000],
    metadata: { filename: name, filetype: file.type },
    // Resuming after a reload is not offered; each pick is a new upload.
    storeFingerprintForResuming: false,
    onProgress(sent, total) {
      handlers.onProgress(total > 0 ? Math.round((sent / total) * 100) : 0);
    },
    onSuccess({ lastResponse }) {
      let url: string | null = null;
      try {
        const body = JSON.parse(lastResponse.getBody()) as { url?: unknown };
        if (typeof body.url === 'string') url = body.url;
      } catch {
        // an older server answering 204: derive the URL from the upload's id
      }
      const id = upload.url?.split('/').pop();
      handlers.onSuccess(url ?? imageUrl(id ?? ''));
    },
    onError(error) {
      const refused = error instanceof DetailedError && error.originalResponse !== null;
      handlers.onError(uploadErrorMessage(error), !refused);
    },
  });
  return upload;
}
