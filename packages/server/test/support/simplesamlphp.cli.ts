import { startSimpleSamlPhp } from './simplesamlphp';

/**
 * SimpleSAMLphp as a process, for the browser tests: `node --import tsx simplesamlphp.cli.ts
 * '<json>'`, the JSON being `{ sp: { entityId, acsUrl }, users: { login: { attribute: [values] } } }`
 * (every user's password is `password`). Prints one line of JSON once the IdP answers: its `url`,
 * `entityId`, `ssoUrl` and `certFile`. SIGTERM stops PHP and removes its folder.
 */
const { sp, users } = JSON.parse(process.argv[2] ?? '{}') as {
  sp: Parameters<typeof startSimpleSamlPhp>[0];
  users: Parameters<typeof startSimpleSamlPhp>[1];
};
const idp = await startSimpleSamlPhp(sp, users);
const { url, entityId, ssoUrl, certFile } = idp;
console.log(JSON.stringify({ url, entityId, ssoUrl, certFile }));
const stop = () => void idp.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
