import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { webPaths } from '@campus-books/common/paths';
import type { PushPayload } from '@campus-books/common/push.schemas';
import {
  deleteGoneSubscription,
  findActiveListingName,
  findEventNotice,
  findSubscription,
} from './push.repository';
import { DIGEST_CHECK_MS } from '../notifications/digest';
import { deliverPush } from '../notifications/deliver';
import { PUSH_JOB } from './push-job';
import { PUSH_DIGEST_JOB, PUSH_KIND_CHOICE, queuePushDigests } from './push-digest';
import { sendPush } from './push-sender';
import { loadOrCreateVapidKeys } from './vapid-keys';

declare module 'fastify' {
  interface FastifyInstance {
    /** Web Push: the VAPID public key browsers subscribe with. */
    push: { publicKey: string };
  }
}

const DAY_SECONDS = 24 * 60 * 60;
const NAME_MAX = 80;

const shortName = (name: string) =>
  name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1).trimEnd()}…` : name;

const EVENT_TITLES: Record<string, { kind: 'message' | 'offer'; title: (name: string) => string }> =
  {
    message: { kind: 'message', title: (name) => `New message about ${name}` },
    offer: { kind: 'offer', title: (name) => `New offer on ${name}` },
    offer_accepted: { kind: 'offer', title: (name) => `Your offer on ${name} was accepted` },
    offer_declined: { kind: 'offer', title: (name) => `Your offer on ${name} was declined` },
  };
/** A message of photos only: its notice says a photo came rather than quoting nothing. */
const PHOTO_TITLE = (name: string) => `New message about ${name}: sent a photo`;

interface PushJobPayload {
  subscription: string;
  /** A conversation event (a message, an offer or its answer). */
  event?: number;
  /** An alert's matching listing. */
  listing?: string;
  /** What was held during the student's quiet hours, as one notification (push-digest.ts). */
  digest?: PushPayload;
}

/**
 * Web Push (docs/api/push.md): the VAPID keys (settings, or DATA_DIR), and the `push.send` job, one
 * per device and thing to tell, run by whichever server claims it. What is sent is read when it is
 * sent: nothing for a message already read, a suspended sender, a listing gone, or a device whose
 * student changed. A subscription the push service calls gone (404, 410) is removed; a failure
 * worth retrying (network, 429, 5xx) is retried by the job runner, a few times.
 */
export default fp(
  async function pushPlugin(app: FastifyInstance) {
    const config = app.config.push;
    if (!config.vapid && app.config.databaseUrl) {
      app.log.warn(
        'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set: this server uses its own keys from DATA_DIR; set them when several app servers share the database (docs/operations.md)',
      );
    }
    const keys = config.vapid ?? (await loadOrCreateVapidKeys(app.config.dataDir));
    app.decorate('push', { publicKey: keys.publicKey });
    const vapid = { ...keys, subject: config.subject };
    const db = app.database.db;

    async function compose(job: PushJobPayload, userId: string, alerts: boolean) {
      if (job.digest) return { payload: job.digest, topic: 'digest', urgency: 'normal' as const };
      if (job.event !== undefined) {
        const notice = await findEventNotice(db, Number(job.event));
        const wording = notice && EVENT_TITLES[notice.kind];
        if (!notice || !wording || notice.read || notice.sender_suspended) return null;
        if (notice.recipient_id !== userId) return null;
        const payload: PushPayload = {
          kind: wording.kind,
          title: (notice.photo_only ? PHOTO_TITLE : wording.title)(shortName(notice.listing_name)),
          url: webPaths.conversation.href(notice.conversation_id),
          tag: `conversation:${notice.conversation_id}`,
        };
        return { payload, topic: notice.conversation_id, urgency: 'high' as const };
      }
      if (job.listing !== undefined && alerts) {
        const name = await findActiveListingName(db, job.listing);
        if (name === undefined) return null;
        const payload: PushPayload = {
          kind: 'alert',
          title: `New for your alert: ${shortName(name)}`,
          url: webPaths.listing.href(job.listing),
          tag: `listing:${job.listing}`,
        };
        return { payload, topic: job.listing, urgency: 'normal' as const };
      }
      return null;
    }

    app.jobs.register<PushJobPayload>(PUSH_JOB, async ({ payload: job, now }) => {
      const subscription = await findSubscription(db, job.subscription);
      if (!subscription) return;
      const notice = await compose(job, subscription.userId, subscription.alerts);
      if (!notice) return;
      // The student's choices: this kind's pushes off, or held for one push after quiet hours.
      if (!job.digest) {
        const kind = PUSH_KIND_CHOICE[notice.payload.kind];
        const push = { title: notice.payload.title, url: notice.payload.url };
        if ((await deliverPush(db, subscription.userId, kind, push, now)) !== 'send') return;
      }
      const outcome = await sendPush(subscription, notice.payload, {
        vapid,
        ttlSeconds: notice.urgency === 'high' ? 2 * DAY_SECONDS : DAY_SECONDS,
        urgency: notice.urgency,
        topic: notice.topic.replace(/-/g, ''),
        testEndpoints: config.testEndpoints,
      });
      if (outcome === 'gone') await deleteGoneSubscription(db, subscription);
      if (outcome === 'refused') {
        app.log.warn({ subscription: subscription.id }, 'the push service refused a notification');
      }
    });
    app.jobs.register(
      PUSH_DIGEST_JOB,
      async ({ now }) => {
        await queuePushDigests({ db, jobs: app.jobs }, now);
      },
      { every: DIGEST_CHECK_MS },
    );
  },
  { name: 'push', dependencies: ['database', 'jobs'] },
);
