import { describe, it } from 'vitest';
import { describeLoadBalancer, haproxyInstalled, HAPROXY } from './load-balancer';

// The short form `npm test` runs (vitest project "load-balancer"): 100 searches after writes.
if (haproxyInstalled()) {
  describeLoadBalancer({ searchAfterWrites: 100, killLoadMs: 3000, clients: 6 });
} else {
  console.warn(
    `\n*** HAProxy is not installed (${HAPROXY}): SKIPPING the load-balancer test. ***\n`,
  );
  describe('three app servers behind HAProxy', () => {
    it.skip(`SKIPPED: HAProxy is not installed (${HAPROXY}; apt-get install haproxy)`, () => {});
  });
}
