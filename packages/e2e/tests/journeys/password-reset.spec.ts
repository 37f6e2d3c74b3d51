import { ApiFailure } from '../../src/api';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { linkIn, RESET_SUBJECT, waitForMail } from '../../src/mail';

test('a forgotten password is reset from the mail and other sessions end', async ({
  page,
  browser,
  makeUser,
}) => {
  const user = await makeUser('forgetful');
  const newPassword = `nw${user.password.slice(-8)}`;

  // Another device, signed in before the reset.
  const otherContext = await browser.newContext();
  const otherPage = await otherContext.newPage();
  await signInBrowser(otherPage, user, '/profile');
  await expect(otherPage.getByRole('heading', { name: 'Profile' })).toBeVisible();

  await test.step('ask for a reset link', async () => {
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    // The sign-in page has an 'Email address' too, and stays on the screen until the next page's code
    // has loaded (the router's transition): the field is filled once the page is the right one.
    await expect(page.getByRole('heading', { name: 'Forgot Password' })).toBeVisible();
    await page.getByLabel('Email address').fill(user.email);
    await page.getByRole('button', { name: 'Send Password' }).click();
    await expect(page.getByText('Password has been sent to your email')).toBeVisible();
  });

  await test.step('open the link and choose a new password', async () => {
    const mail = await waitForMail(user.email, RESET_SUBJECT);
    await page.goto(linkIn(mail, '/reset-password/'));
    await page.getByLabel('New password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('status')).toContainText('password has been reset');
    user.password = newPassword;
    // The page takes the user to sign in after 2 seconds.
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  await test.step('the old password fails, the new one works', async () => {
    await page.getByLabel('Email address').fill(user.email);
    await page.getByLabel('Password').fill(`${newPassword.slice(2)}xx`);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toContainText('Wrong e-mail or password');
    await page.getByLabel('Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  await test.step('the session opened before the reset is gone', async () => {
    await otherPage.reload();
    await expect(otherPage).toHaveURL(/\/sign-in\?redirectTo=%2Fprofile/);
    await otherContext.close();
    const me = user.api.call('GET /api/auth/me');
    await expect(me).rejects.toBeInstanceOf(ApiFailure);
    await expect(me).rejects.toMatchObject({ status: 401 });
  });
});
