import { startTestOidcProvider } from './oidc-test-provider';

/**
 * The test OpenID provider as a process, for the browser tests: `node --import tsx
 * oidc-test-provider.cli.ts <port> <redirect URI>`; accounts are added with POST /test/accounts.
 */
const port = Number(process.argv[2] ?? 0);
const redirectUri = process.argv[3] ?? 'http://127.0.0.1:3100/api/sso/oidc/callback';
const provider = await startTestOidcProvider([redirectUri], port);
console.log(`test OpenID provider on ${provider.issuer}`);
const stop = () => void provider.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
