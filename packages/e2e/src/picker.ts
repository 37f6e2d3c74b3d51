import { expect, type Locator, type Page } from '@playwright/test';

export interface PickedFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

export const jpegFile = (name: string, buffer: Buffer): PickedFile => ({
  name,
  mimeType: 'image/jpeg',
  buffer,
});

/**
 * The image picker's contract (web brief): a labelled file input whose files start uploading once
 * picked (a picker may still have an Upload button), then one thumbnail per stored image. `scope`
 * narrows it to one form.
 */
export function imagePicker(scope: Page | Locator) {
  const fileInput = scope.locator('input[type="file"]').first();
  return {
    fileInput,
    thumbnails: scope.locator('img[src^="/api/images/"]'),
    uploadButton: scope.getByRole('button', { name: /^upload( images?| photos?)?$/i }),
    progress: scope.getByRole('progressbar'),
  };
}

/** Picks files and presses Upload (when the picker has one; a picker may start on its own). */
export async function pickImages(scope: Page | Locator, files: PickedFile[]): Promise<void> {
  const picker = imagePicker(scope);
  await expect(picker.fileInput).toBeAttached();
  await picker.fileInput.setInputFiles(files);
  if ((await picker.uploadButton.count()) > 0) await picker.uploadButton.click();
}

/** Picks files and waits for `expected` thumbnails in total. */
export async function uploadImages(
  scope: Page | Locator,
  files: PickedFile[],
  expected: number,
): Promise<void> {
  await pickImages(scope, files);
  await expect(imagePicker(scope).thumbnails).toHaveCount(expected, { timeout: 30_000 });
}
