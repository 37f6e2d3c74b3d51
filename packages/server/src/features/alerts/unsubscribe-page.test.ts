import { describe, expect, it } from 'vitest';
import { donePage, invalidPage } from './unsubscribe-page';

// Issue 26: the page added its own full stop to a message that already had one ("..").
describe('the unsubscribe pages', () => {
  it('end a message with one full stop, whether or not it has one', () => {
    for (const message of ['No more mails', 'No more mails.']) {
      expect(donePage('http://campus.test', message)).toContain('No more mails.</p>');
      expect(invalidPage('http://campus.test', message)).toContain('No more mails. You can');
      expect(donePage('http://campus.test', message)).not.toContain('..');
      expect(invalidPage('http://campus.test', message)).not.toContain('..');
    }
  });
});
