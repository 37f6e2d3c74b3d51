import { describe, it } from 'vitest';
import { haproxyInstalled, HAPROXY } from './load-balancer';
import { describeSsoBalancer } from './sso-balancer';

// The short form `npm test` runs (vitest project "sso-balancer"): a sign-on started on one app
// server and finished on the other, then three one-click sign-ons through HAProxy.
if (haproxyInstalled()) {
  describeSsoBalancer({ oneClickSignOns: 3, firstSignOnsAtOnce: 0 });
} else {
  console.warn(
    `\n*** HAProxy is not installed (${HAPROXY}): SKIPPING the sign-on balancer test. ***\n`,
  );
  describe('single sign-on behind HAProxy', () => {
    it.skip(`SKIPPED: HAProxy is not installed (${HAPROXY}; apt-get install haproxy)`, () => {});
  });
}
