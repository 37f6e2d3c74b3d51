import { startCasStandIn } from './cas-stand-in';

/**
 * The CAS 3.0 stand-in as a process, for the browser tests: `node --import tsx cas-stand-in.cli.ts
 * '<json>'`, the JSON being the accounts its login form knows (user id → attributes; every
 * password is `password`). Prints one line of JSON, `{ "url": … }`, once it listens.
 */
const cas = await startCasStandIn();
cas.addAccounts(JSON.parse(process.argv[2] ?? '{}') as Record<string, Record<string, string[]>>);
console.log(JSON.stringify({ url: cas.url }));
const stop = () => void cas.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
