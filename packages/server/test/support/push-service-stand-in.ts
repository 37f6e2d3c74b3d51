import { createDecipheriv, createECDH, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify, type JWTPayload } from 'jose';

/**
 * A stand-in of a push service (the one Mozilla, Google, Apple and Microsoft run for their browsers),
 * on a loopback port: it takes what the server POSTs to a subscription's endpoint, checks the VAPID
 * JWT (RFC 8292) and decrypts the payload (RFC 8291, aes128gcm: RFC 8188) with the device's keys,
 * which `subscribe()` generates as a browser does. Written from the RFCs, so it does not share the
 * server's encryption code. An endpoint marked gone answers 410 (or 404), like a real service once a
 * browser dropped the subscription.
 */
export interface DeviceSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  /** Which device (the endpoint's last segment). */
  device: string;
  headers: IncomingHttpHeaders;
  /** The decrypted payload, parsed as JSON. */
  payload: unknown;
  /** The decrypted bytes' length (the payload as sent). */
  plaintextBytes: number;
  /** The VAPID JWT's claims, after its signature was checked with the key it names. */
  jwt: JWTPayload;
  /** The `k` of the Authorization header: the application server's public key. */
  vapidPublicKey: string;
  /** What went wrong checking it, if anything (the answer was then 400). */
  error: string | null;
}

interface Device {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  answer: number;
}

function hkdf(salt: Buffer, ikm: Buffer, info: Buffer, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, info, length));
}

/** RFC 8291 section 3.4 and RFC 8188: one record, padding delimiter 2, as a user agent decrypts. */
export function decryptAes128gcm(
  body: Buffer,
  device: { ecdh: Device['ecdh']; auth: Buffer },
): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body.readUInt8(20);
  const serverPublicKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`keyid is ${idLength} bytes, not a P-256 public key`);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const ecdhSecret = device.ecdh.computeSecret(serverPublicKey);
  const keyInfo = Buffer.concat([
    Buffer.from('WebPush: info\0'),
    device.ecdh.getPublicKey(),
    serverPublicKey,
  ]);
  const ikm = hkdf(device.auth, ecdhSecret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([
    decipher.update(ciphertext.subarray(0, ciphertext.length - 16)),
    decipher.final(),
  ]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record padding delimiter');
  return padded.subarray(0, end);
}

/** The application server's public key (65-byte point, base64url) as a JWK to verify with. */
async function vapidKey(publicKey: string) {
  const point = Buffer.from(publicKey, 'base64url');
  return importJWK(
    {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    'ES256',
  );
}

export class PushServiceStandIn {
  readonly received: ReceivedPush[] = [];
  readonly #devices = new Map<string, Device>();
  readonly #server: Server;
  #origin = '';

  private constructor() {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.#receive(request.url ?? '', request.headers, Buffer.concat(chunks)).then(
          (status) => response.writeHead(status).end(),
          () => response.writeHead(500).end(),
        );
      });
    });
  }

  static async start(): Promise<PushServiceStandIn> {
    const standIn = new PushServiceStandIn();
    await new Promise<void>((resolve) => standIn.#server.listen(0, '127.0.0.1', resolve));
    const { port } = standIn.#server.address() as AddressInfo;
    standIn.#origin = `http://127.0.0.1:${port}`;
    return standIn;
  }

  /** A new device's subscription, keys generated as a browser generates them. */
  subscribe(): DeviceSubscription & { device: string } {
    const device = randomUUID();
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.#devices.set(device, { ecdh, auth, answer: 201 });
    return {
      device,
      endpoint: `${this.#origin}/push/${device}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    };
  }

  /** How the service answers this device from now on: 410 or 404 gone, 503 down, 201 fine. */
  answer(device: string, status: number): void {
    this.#devices.get(device)!.answer = status;
  }

  to(device: string): ReceivedPush[] {
    return this.received.filter((r) => r.device === device);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  async #receive(url: string, headers: IncomingHttpHeaders, body: Buffer): Promise<number> {
    const deviceId = /^\/push\/([0-9a-f-]+)$/.exec(url)?.[1] ?? '';
    const device = this.#devices.get(deviceId);
    if (!device) return 404;
    const entry: ReceivedPush = {
      device: deviceId,
      headers,
      payload: null,
      plaintextBytes: 0,
      jwt: {},
      vapidPublicKey: '',
      error: null,
    };
    this.received.push(entry);
    try {
      const authorization = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(
        headers.authorization ?? '',
      );
      if (!authorization) throw new Error(`no VAPID Authorization: ${headers.authorization}`);
      entry.vapidPublicKey = authorization[2]!;
      const { payload: claims } = await jwtVerify(
        authorization[1]!,
        await vapidKey(entry.vapidPublicKey),
        { algorithms: ['ES256'], audience: this.#origin },
      );
      entry.jwt = claims;
      if (headers['content-encoding'] !== 'aes128gcm') throw new Error('not aes128gcm');
      const plaintext = decryptAes128gcm(body, device);
      entry.plaintextBytes = plaintext.length;
      entry.payload = JSON.parse(plaintext.toString('utf8'));
    } catch (error) {
      entry.error = (error as Error).message;
      return 400;
    }
    return device.answer;
  }
}
