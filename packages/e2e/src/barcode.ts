import { writeFileSync } from 'node:fs';
import path from 'node:path';
import bwipjs from 'bwip-js/node';
import sharp from 'sharp';

/** A real EAN-13 barcode of an ISBN-13 as on a back cover, centred on a white 640×480 JPEG. */
export async function barcodePhoto(isbn13: string): Promise<Buffer> {
  const png = await bwipjs.toBuffer({
    bcid: 'ean13',
    text: isbn13,
    scale: 3,
    height: 22,
    includetext: true,
    backgroundcolor: 'FFFFFF',
  });
  return sharp(png)
    .resize({ width: 480, height: 360, fit: 'contain', background: '#ffffff' })
    .extend({ top: 60, bottom: 60, left: 80, right: 80, background: '#ffffff' })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/**
 * A video for Chromium's fake camera (--use-file-for-fake-video-capture): an MJPEG file, that is
 * JPEG frames one after the other, each showing the barcode.
 */
export async function writeBarcodeVideo(dir: string, isbn13: string): Promise<string> {
  const frame = await barcodePhoto(isbn13);
  const file = path.join(dir, `barcode-${isbn13}.mjpeg`);
  writeFileSync(file, Buffer.concat(Array.from({ length: 30 }, () => frame)));
  return file;
}
