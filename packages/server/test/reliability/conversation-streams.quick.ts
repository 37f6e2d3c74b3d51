import { describe, it } from 'vitest';
import { describeConversationStreams } from './conversation-streams';
import { haproxyInstalled, HAPROXY } from './load-balancer';

// The short form `npm test` runs (vitest project "event-streams"): across servers, a kill -9 and
// three missed messages; heartbeats every second.
if (haproxyInstalled()) {
  describeConversationStreams({ missed: 3, heartbeatMs: 1000, idleMs: 0 });
} else {
  console.warn(
    `\n*** HAProxy is not installed (${HAPROXY}): SKIPPING the event-stream balancer test. ***\n`,
  );
  describe('event streams behind HAProxy', () => {
    it.skip(`SKIPPED: HAProxy is not installed (${HAPROXY}; apt-get install haproxy)`, () => {});
  });
}
