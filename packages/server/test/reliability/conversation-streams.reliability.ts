import { describe, it } from 'vitest';
import { describeConversationStreams } from './conversation-streams';
import { haproxyInstalled, HAPROXY } from './load-balancer';

// The full form: the app's default heartbeat (25 s) holding a stream quiet for 75 s, longer than
// the recipe's 60 s time-outs, then a kill -9 with 50 missed messages.
if (haproxyInstalled()) {
  describeConversationStreams({ missed: 50, idleMs: 75_000 });
} else {
  describe('event streams behind HAProxy', () => {
    it.skip(`SKIPPED: HAProxy is not installed (${HAPROXY}; apt-get install haproxy)`, () => {});
  });
}
