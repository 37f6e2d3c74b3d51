/**
 * The V8 flags the server runs with, on every command that starts it: `npm run start:server`, the
 * systemd units (ops/systemd), the demo and the launcher the tests and the bench start servers with
 * (test/support/server-process.ts). test/structure/node-flags.test.ts keeps them the same.
 *
 * A young generation of up to 2 × 32 MB instead of V8's 2 × 16 MB: nearly everything a request
 * allocates is garbage when its answer is sent, and with more room it dies before a scavenge copies
 * it or promotes it to the old generation, whose collections mark the whole heap (every campus's
 * kept answers). Measured with the same cached search sent to a single campus and to 100 campuses,
 * each server alone on its core, the server's CPU per answer, median of six runs each: 31.7 → 30.5 µs
 * and 53.5 → 46.7 µs (docs/performance.md, "The young generation's size"). It is memory taken
 * only under load (the young generation grows as it needs): an idle server's is unchanged.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
