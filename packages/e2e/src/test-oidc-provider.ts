import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const CLI = path.resolve(
  import.meta.dirname,
  '..',
  '..',
  'server',
  'test',
  'support',
  'oidc-test-provider.cli.ts',
);

/** A real OpenID provider (oidc-provider) in a process of its own, for one spec. */
export interface TestOidcProviderProcess {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds accounts (login name → OIDC claims) to the provider. */
  addAccounts(accounts: Record<string, Record<string, unknown>>): Promise<void>;
  stop(): Promise<void>;
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

export async function startOidcProviderProcess(
  redirectUri: string,
): Promise<TestOidcProviderProcess> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, String(port), redirectUri],
    { cwd: path.dirname(CLI), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the provider exited:\n${output}`);
    const ok = await fetch(`${issuer}/.well-known/openid-configuration`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the provider did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    issuer,
    clientId: 'campus-books',
    clientSecret: 'a-client-secret-of-the-test-provider',
    async addAccounts(accounts) {
      const res = await fetch(`${issuer}/test/accounts`, {
        method: 'POST',
        body: JSON.stringify(accounts),
      });
      if (!res.ok) throw new Error(`adding accounts: ${res.status}`);
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
