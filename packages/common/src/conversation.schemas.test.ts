import { describe, expect, it } from 'vitest';
import {
  CONVERSATION_MESSAGES,
  FIRST_MESSAGES,
  firstMessageText,
  sendMessageSchema,
  startConversationSchema,
} from './conversation.schemas';

describe('first messages and client ids', () => {
  it("puts the listing's price in the offer, and leaves the other texts as they are", () => {
    expect(FIRST_MESSAGES.map((text) => firstMessageText(text, 30))).toEqual([
      'Is this still available?',
      'Would you take $30.00?',
      'When could we meet?',
    ]);
    expect(firstMessageText('Would you take {price}?', 1250.5)).toBe('Would you take $1,250.50?');
    expect(firstMessageText('Would you take {price}?', null)).toBe('Would you take $…?');
  });

  it('takes a UUID or the web app’s key of a typed message as clientId, and nothing else', () => {
    const ok = (clientId: unknown) => sendMessageSchema.safeParse({ text: 'Hi', clientId }).success;
    expect(ok(undefined)).toBe(true);
    expect(ok('0b8e5a62-3c1f-4d8e-9a57-1f2e3d4c5b6a')).toBe(true);
    expect(ok('0b8e5a623c1f4d8e9a571f2e3d4c5b6a.1a2b3c4d')).toBe(true);
    for (const bad of ['short', 'x'.repeat(101), 'a b c d e f', "' OR 1=1", 42, null]) {
      expect(ok(bad), String(bad)).toBe(false);
    }
    expect(
      startConversationSchema.safeParse({ listingId: 'x', text: 'Hi', clientId: 'no/slash/here' })
        .success,
    ).toBe(false);
  });
});

describe('a message is text, photos or both', () => {
  const photo = '00000000-0000-4000-8000-000000000000';
  const errorsOf = (body: object) =>
    sendMessageSchema.safeParse(body).error?.issues.map((i) => [i.path.join('.'), i.message]);

  it('takes photos without text, and answers "" as the text', () => {
    expect(sendMessageSchema.parse({ photos: [photo] })).toEqual({ photos: [photo] });
    expect(sendMessageSchema.parse({ text: ' \u200B ', photos: [photo] }).text).toBe('');
    const first = startConversationSchema.parse({ listingId: 'x', photos: [photo] });
    expect(first.photos).toEqual([photo]);
  });

  it('still asks for text without a photo, with the same message', () => {
    const required = [['text', CONVERSATION_MESSAGES.textRequired]];
    for (const body of [{}, { text: '' }, { text: '  \n ' }, { text: '', photos: [] }]) {
      expect(errorsOf(body), JSON.stringify(body)).toEqual(required);
    }
    expect(startConversationSchema.safeParse({ listingId: 'x', text: ' ' }).success).toBe(false);
    expect(errorsOf({ text: 'x'.repeat(2001), photos: [photo] })).toEqual([
      ['text', CONVERSATION_MESSAGES.textTooLong],
    ]);
  });
});
