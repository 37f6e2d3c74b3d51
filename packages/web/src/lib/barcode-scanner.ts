import {
  BarcodeDetector as BarcodeDetectorPonyfill,
  setZXingModuleOverrides,
} from 'barcode-detector/ponyfill';
// The WebAssembly must be the build of the exact zxing-wasm version barcode-detector runs (a newer
// one fails with "memory access out of bounds"): package.json pins zxing-wasm to barcode-detector's.
import zxingWasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/** What the scanner needs of a BarcodeDetector (the browser's, or the kept polyfill). */
export interface IsbnDetector {
  detect(source: ImageBitmapSource): Promise<{ rawValue: string }[]>;
}

interface NativeDetectorClass {
  new (options: { formats: string[] }): IsbnDetector;
  getSupportedFormats(): Promise<string[]>;
}

/**
 * The browser's BarcodeDetector when it reads EAN-13 (the barcode on a book's back cover), else the
 * polyfill built on zxing-wasm, whose WebAssembly file is one of our own built assets (never a CDN).
 * This module is loaded only when a seller presses "Scan ISBN".
 */
export async function createIsbnDetector(): Promise<IsbnDetector> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  try {
    if (Native && (await Native.getSupportedFormats()).includes('ean_13')) {
      return new Native({ formats: ['ean_13'] });
    }
  } catch {
    // A browser that lists no formats: the polyfill reads them.
  }
  setZXingModuleOverrides({
    locateFile: (path: string, prefix: string) =>
      path.endsWith('.wasm') ? new URL(zxingWasmUrl, window.location.href).href : prefix + path,
  });
  return new BarcodeDetectorPonyfill({ formats: ['ean_13'] });
}
