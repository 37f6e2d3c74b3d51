import { describe, it } from 'vitest';
import { describeLoadBalancer, haproxyInstalled, HAPROXY } from './load-balancer';

// The full form: 1,000 searches after writes, 6 s of mixed load around the kill -9.
if (haproxyInstalled()) {
  describeLoadBalancer({ searchAfterWrites: 1000, killLoadMs: 6000, clients: 8 });
} else {
  describe('three app servers behind HAProxy', () => {
    it.skip(`SKIPPED: HAProxy is not installed (${HAPROXY}; apt-get install haproxy)`, () => {});
  });
}
