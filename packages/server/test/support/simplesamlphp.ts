import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Debian's SimpleSAMLphp package: a real SAML IdP that universities run (.ci/run installs it). */
export const SIMPLESAMLPHP_WWW = '/usr/share/simplesamlphp/www';
export const hasSimpleSamlPhp = () =>
  existsSync(SIMPLESAMLPHP_WWW) && existsSync('/usr/bin/php') && existsSync('/usr/bin/openssl');

export interface TestIdp {
  url: string;
  entityId: string;
  ssoUrl: string;
  /** The IdP's signing certificate file (PEM), and its key, for forging in tests. */
  certFile: string;
  keyFile: string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
      .once('error', reject)
      .listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
  });
}

const php = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(php).join(', ')}]`;
  if (value && typeof value === 'object') {
    return `[${Object.entries(value)
      .map(([k, v]) => `${php(k)} => ${php(v)}`)
      .join(', ')}]`;
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return `'${String(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
};

/** A service provider the IdP knows: its entity id and ACS URL. */
export interface IdpServiceProvider {
  entityId: string;
  acsUrl: string;
}

/**
 * SimpleSAMLphp as an IdP on a free port (PHP's built-in server), with `exampleauth:UserPass`
 * users (`login:password` → attributes by their names; released under their URI names) and our
 * SP by its entity id and ACS URL, or several (each campus's of a many-campus installation).
 */
export async function startSimpleSamlPhp(
  sp: IdpServiceProvider | readonly IdpServiceProvider[],
  users: Record<string, Record<string, string[]>>,
): Promise<TestIdp> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cb-ssp-'));
  for (const sub of ['config', 'metadata', 'cert', 'tmp', 'log']) mkdirSync(path.join(dir, sub));
  const certFile = path.join(dir, 'cert', 'idp.crt');
  const keyFile = path.join(dir, 'cert', 'idp.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '2',
      '-subj',
      '/CN=idp.test',
    ],
    { stdio: 'ignore' },
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const entityId = `${url}/idp`;
  const write = (file: string, text: string) =>
    writeFileSync(path.join(dir, file), `<?php\n${text}\n`);
  write(
    'config/config.php',
    `$config = ${php({
      baseurlpath: `${url}/`,
      certdir: `${dir}/cert/`,
      loggingdir: `${dir}/log/`,
      tempdir: `${dir}/tmp/`,
      metadatadir: `${dir}/metadata/`,
      attributenamemapdir: '/etc/simplesamlphp/attributemap/',
      secretsalt: 'a-secret-salt-of-the-test-idp',
      'auth.adminpassword': 'an-admin-password-nobody-uses',
      technicalcontact_name: 'Test',
      technicalcontact_email: 'test@example.edu',
      timezone: 'UTC',
      'logging.handler': 'file',
      'enable.saml20-idp': true,
      'module.enable': { exampleauth: true, core: true, saml: true },
      'store.type': 'phpsession',
    })};`,
  );
  const userEntries = Object.fromEntries(
    Object.entries(users).map(([login, attributes]) => [`${login}:password`, attributes]),
  );
  write(
    'config/authsources.php',
    `$config = ${php({ 'test-users': { 0: 'exampleauth:UserPass', ...userEntries } })};`,
  );
  write(
    'metadata/saml20-idp-hosted.php',
    `$metadata[${php(entityId)}] = ${php({
      host: '__DEFAULT__',
      privatekey: 'idp.pem',
      certificate: 'idp.crt',
      auth: 'test-users',
      'attributes.NameFormat': 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri',
      'saml20.sign.assertion': true,
      'sign.response': false,
    })};\n$metadata[${php(entityId)}]['authproc'] = [100 => ['class' => 'core:AttributeMap', 'name2oid']];`,
  );
  const sps: readonly IdpServiceProvider[] = 'entityId' in sp ? [sp] : sp;
  write(
    'metadata/saml20-sp-remote.php',
    sps
      .map(
        ({ entityId: spEntityId, acsUrl }) =>
          `$metadata[${php(spEntityId)}] = ${php({
            AssertionConsumerService: acsUrl,
            NameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
          })};`,
      )
      .join('\n'),
  );
  let output = '';
  const child: ChildProcess = spawn('php', ['-S', `127.0.0.1:${port}`, '-t', SIMPLESAMLPHP_WWW], {
    cwd: SIMPLESAMLPHP_WWW,
    env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: path.join(dir, 'config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`SimpleSAMLphp exited:\n${output}`);
    const ok = await fetch(`${url}/saml2/idp/metadata.php`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`SimpleSAMLphp did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    entityId,
    ssoUrl: `${url}/saml2/idp/SSOService.php`,
    certFile,
    keyFile,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * Follows an AuthnRequest URL at the IdP as a browser would, signing in as `login`: the form the
 * IdP's page posts to our ACS (SAMLResponse and RelayState).
 */
export async function signInAtIdp(
  authorizeUrl: string,
  login: string,
): Promise<{ action: string; SAMLResponse: string; RelayState: string }> {
  const cookies = new Map<string, string>();
  const take = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = new URL(authorizeUrl);
  let res: Response | undefined;
  for (let hop = 0; hop < 10; hop += 1) {
    res = await fetch(url, { redirect: 'manual', headers: { cookie: cookie() } });
    take(res);
    const location = res.headers.get('location');
    if (!location) break;
    url = new URL(location, url);
  }
  const authState = new URL(url).searchParams.get('AuthState');
  if (!authState) throw new Error(`no login page at the IdP: ${await res?.text()}`);
  const posted = await fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: login, password: 'password', AuthState: authState }),
  });
  take(posted);
  let page = await posted.text();
  let location = posted.headers.get('location');
  for (let hop = 0; location && hop < 10; hop += 1) {
    const next: Response = await fetch(new URL(location, url), {
      redirect: 'manual',
      headers: { cookie: cookie() },
    });
    take(next);
    page = await next.text();
    location = next.headers.get('location');
  }
  const field = (name: string) =>
    unescape(new RegExp(`name="${name}"\\s+value="([^"]*)"`).exec(page)?.[1] ?? '');
  const action = unescape(/<form[^>]*action="([^"]+)"/.exec(page)?.[1] ?? '');
  if (!field('SAMLResponse'))
    throw new Error(
      `no SAML response from the IdP:\n${page
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(0, 3000)}`,
    );
  return { action, SAMLResponse: field('SAMLResponse'), RelayState: field('RelayState') };
}

export const readPem = (file: string) => readFileSync(file, 'utf8');
