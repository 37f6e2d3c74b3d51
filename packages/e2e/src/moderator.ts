import { Api } from './api';
import { linkIn, mailsTo, VERIFY_SUBJECT, waitForMail } from './mail';
import { newStudent, type TestUser } from './users';

/**
 * The campus moderator (MODERATOR_EMAILS in playwright.config.ts), signed up and verified through
 * the API; a test deletes it afterwards. The address is reused by every test: only a verification
 * mail sent after this point counts.
 */
export async function makeModerator(): Promise<TestUser> {
  const student = { ...newStudent('moderator'), email: 'moderator@e2e.campus.edu' };
  const api = await Api.open();
  const earlier = await mailsTo(student.email);
  await api.call('POST /api/auth/signup', { body: student });
  const mail = await waitForMail(student.email, VERIFY_SUBJECT, { notIn: earlier });
  await api.call('POST /api/auth/verify-email', {
    body: { token: linkIn(mail, '/verify-email/').split('/').pop() ?? '' },
  });
  const me = await api.signIn(student.email, student.password);
  return { ...student, id: me._id, api };
}
