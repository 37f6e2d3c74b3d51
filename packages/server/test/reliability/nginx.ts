import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { freePort, sleep } from './processes';

/** nginx for the reverse-proxy test (reverse-proxy.nginx.ts): started, its certificate, asked. */

export const NGINX = '/usr/sbin/nginx';
/** The operators' recipe (its @…@ markers filled in by startNginx). */
export const NGINX_TEMPLATE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../ops/nginx/campus-books.conf',
);

/**
 * ops/nginx/campus-books.conf, as it is but for its @…@ markers, with a self-signed certificate:
 * started as its own nginx (its own prefix folder), stopped by `stop`.
 */
export async function startNginx(dir: string, appServers: string[], httpsPort?: number) {
  mkdirSync(dir, { recursive: true });
  httpsPort ??= await freePort();
  const httpPort = await freePort();
  const config = readFileSync(NGINX_TEMPLATE, 'utf8')
    .replace('@APP_SERVERS@', appServers.map((s) => `server ${s};`).join(' '))
    .replace('@HTTP_LISTEN@', `127.0.0.1:${httpPort}`)
    .replace('@HTTPS_LISTEN@', `127.0.0.1:${httpsPort}`)
    .replace('@CERT@', path.join(dir, '../cert.pem'))
    .replace('@KEY@', path.join(dir, '../key.pem'));
  expect(config).not.toMatch(/@[A-Z_]+@/);
  writeFileSync(path.join(dir, 'nginx.conf'), config);
  let output = '';
  const child: ChildProcess = spawn(
    NGINX,
    [
      '-p',
      dir,
      '-c',
      path.join(dir, 'nginx.conf'),
      '-g',
      `daemon off; master_process off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  for (let tries = 0; ; tries += 1) {
    try {
      await new Promise<void>((resolve, reject) =>
        request(`http://127.0.0.1:${httpPort}/`, (res) => {
          res.resume();
          resolve();
        })
          .on('error', reject)
          .end(),
      );
      break;
    } catch {
      if (tries > 100 || child.exitCode !== null)
        throw new Error(`nginx did not start:\n${output}`);
      await sleep(50);
    }
  }
  return {
    httpsPort,
    httpPort,
    base: `https://127.0.0.1:${httpsPort}`,
    stop: () => {
      child.kill('SIGQUIT');
    },
  };
}

export const nginxInstalled = () => existsSync(NGINX);

/** What a request through nginx answers. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface HttpsOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  localAddress?: string;
}

/** One HTTPS request to `base`, trusting the certificate `ca` only. */
export function sendHttps(
  base: string,
  ca: Buffer,
  url: string,
  options: HttpsOptions = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      new URL(url, base),
      {
        method: options.method ?? 'GET',
        headers: options.headers,
        ca,
        localAddress: options.localAddress,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A self-signed certificate for 127.0.0.1 written to dir/cert.pem and dir/key.pem: the CA to trust. */
export function makeSelfSignedCertificate(dir: string): Buffer {
  const request = 'req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1';
  execFileSync(
    'openssl',
    [
      ...request.split(' '),
      ...['-addext', 'subjectAltName=IP:127.0.0.1'],
      ...['-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')],
    ],
    { stdio: 'pipe' },
  );
  return readFileSync(path.join(dir, 'cert.pem'));
}
