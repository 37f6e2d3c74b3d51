import {
  CONVERSATION_EVENT_KINDS,
  type Conversation,
  type ConversationEvent,
  type ConversationSummary,
} from '@campus-books/common/conversation.schemas';
import { describe, expect, it } from 'vitest';
import { actorName, dollars, latestLine, systemLine } from './event-line';

const conversation = {
  role: 'buyer',
  other: { id: 'u2', username: 'Maya P.' },
} as Conversation;

const event = (fields: Partial<ConversationEvent>): ConversationEvent => ({
  id: 1,
  conversationId: 'c1',
  kind: 'message',
  author: null,
  deletedAuthor: false,
  body: null,
  amount: null,
  offerId: null,
  photos: [],
  listings: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});

describe('event lines', () => {
  it('names the actor from the reader’s side', () => {
    expect(actorName(event({ author: 'buyer' }), conversation)).toBe('You');
    expect(actorName(event({ author: 'seller' }), conversation)).toBe('Maya P.');
    expect(actorName(event({ deletedAuthor: true }), conversation)).toBe('A deleted account');
  });

  it('says an offer, a counter and their answers in whole dollars', () => {
    expect(systemLine(event({ kind: 'offer', author: 'buyer', amount: 30 }), conversation)).toBe(
      'You offered $30',
    );
    expect(systemLine(event({ kind: 'offer', author: 'seller', amount: 35 }), conversation)).toBe(
      'Maya P. countered with $35',
    );
    expect(
      systemLine(event({ kind: 'offer_accepted', author: 'buyer', amount: 35 }), conversation),
    ).toBe('You accepted the offer of $35');
    expect(dollars(1234)).toBe('$1,234');
  });

  it('says an offer for several books with their number, and one book’s without', () => {
    const book = (id: string) => ({ id, title: id, price: 10, status: 'active' as const });
    const three = [book('b1'), book('b2'), book('b3')];
    expect(
      systemLine(
        event({ kind: 'offer', author: 'buyer', amount: 25, listings: three }),
        conversation,
      ),
    ).toBe('You offered $25 for 3 books');
    expect(
      systemLine(
        event({ kind: 'offer_accepted', author: 'seller', amount: 25, listings: three }),
        conversation,
      ),
    ).toBe('Maya P. accepted the offer of $25 for 3 books');
    expect(
      systemLine(
        event({ kind: 'offer', author: 'buyer', amount: 9, listings: [book('b1')] }),
        conversation,
      ),
    ).toBe('You offered $9');
  });

  it('has a sentence for every kind of listing change', () => {
    for (const kind of CONVERSATION_EVENT_KINDS.filter((k) => k !== 'message')) {
      expect(systemLine(event({ kind, amount: 10 }), conversation), kind).toMatch(/\w{3,}/);
    }
  });

  it("says the inbox line's latest event: 'You: …', the other's name, or the event's sentence", () => {
    const line = (lastEvent: ConversationSummary['lastEvent']) =>
      latestLine({ ...conversation, lastEvent } as ConversationSummary);
    const message = { kind: 'message' as const, amount: null };
    expect(line({ ...message, author: 'buyer', preview: 'Is it torn?' })).toBe('You: Is it torn?');
    expect(line({ ...message, author: 'seller', preview: 'No' })).toBe('Maya P.: No');
    expect(line({ ...message, author: null, preview: 'bye' })).toBe('A deleted account: bye');
    expect(line({ kind: 'offer', author: 'buyer', preview: null, amount: 30 })).toBe(
      'You offered $30',
    );
    expect(line(null)).toBeNull();
  });
});
