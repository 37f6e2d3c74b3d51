import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateVapidKeys, isVapidKeyPair } from '../../config/push-config';

export const vapidKeysFile = (dataDir: string) => path.join(dataDir, 'vapid-keys.json');

/**
 * The VAPID key pair kept in DATA_DIR, generated on the first start (readable by the server's own
 * user only). Another process that created it first wins; a file that holds no key pair stops the
 * start, since new keys would silently end every device's subscription.
 */
export async function loadOrCreateVapidKeys(
  dataDir: string,
): Promise<{ publicKey: string; privateKey: string }> {
  const file = vapidKeysFile(dataDir);
  const read = async () => {
    const keys = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const { publicKey, privateKey } = keys;
    if (
      typeof publicKey !== 'string' ||
      typeof privateKey !== 'string' ||
      !isVapidKeyPair(publicKey, privateKey)
    ) {
      throw new Error(`${file} holds no VAPID key pair: restore it from a backup, or remove it`);
    }
    return { publicKey, privateKey };
  };
  try {
    return await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const keys = generateVapidKeys();
  try {
    await writeFile(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return read();
  }
}
