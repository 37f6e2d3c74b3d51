import { startFakeBookProviders } from './fake-book-providers';

/**
 * The FAKE book providers as a process, for the browser tests: `node --import tsx
 * fake-book-providers.cli.ts <port>`; the server under test points OPEN_LIBRARY_URL etc. at it.
 */
const port = Number(process.argv[2] ?? 3199);
const fake = await startFakeBookProviders(port);
console.log(`fake book providers on ${fake.url}`);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
