import { PASSWORD_HINT } from '@campus-books/common/account.schemas';
import { MESSAGES } from '@campus-books/common/messages';
import type { ApiAnswer } from '@campus-books/common/call-route';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { GROUPME_PREFIX, newStudent } from '../../src/users';

const groupmeMessage = MESSAGES.groupmeLink(GROUPME_PREFIX);

test('sign-up shows every validation message', async ({ page }) => {
  await page.goto('/sign-up');
  // The password's rule is stated before anything is typed, and tied to the field.
  const password = page.getByLabel('Password', { exact: true });
  await expect(password).toHaveAccessibleDescription(PASSWORD_HINT);
  const submit = page.getByRole('button', { name: 'Sign Up' });
  await submit.click();
  await expect(page.getByText(MESSAGES.firstNameRequired)).toBeVisible();
  await expect(page.getByText(MESSAGES.lastNameRequired)).toBeVisible();
  await expect(page.getByText(MESSAGES.emailRequired)).toBeVisible();
  await expect(page.getByText(MESSAGES.passwordRequired)).toBeVisible();
  // The GroupMe link is optional (GROUPME_REQUIRED off, decision 019): empty is no mistake.
  await expect(page.getByLabel('GroupMe link (optional)')).not.toHaveAttribute('aria-invalid');
  await expect(page.getByText(groupmeMessage)).toHaveCount(0);
  await expect(page).toHaveURL(/\/sign-up$/);

  await page.getByLabel('Email Address (.edu)').fill('someone@gmail.com');
  await password.fill('short');
  await page.getByLabel('GroupMe link').fill('javascript:alert(1)');
  await submit.click();
  await expect(page.getByText(MESSAGES.schoolEmail)).toBeVisible();
  await expect(page.getByText(MESSAGES.passwordLength)).toBeVisible();
  await expect(page.getByText(groupmeMessage)).toBeVisible();
  await expect(page.getByLabel('Email Address (.edu)')).toHaveAttribute('aria-invalid', 'true');

  await password.fill('x'.repeat(129));
  await submit.click();
  await expect(page.getByText(MESSAGES.passwordLength)).toBeVisible();
  // A password manager's long password is welcome.
  await password.fill(`${'correct horse battery staple '.repeat(4)}!`);
  await submit.click();
  await expect(page.getByText(MESSAGES.passwordLength)).toHaveCount(0);
});

test('with SCHOOL_EMAIL_DOMAIN set, sign-up names the campus domain in its label and refusal', async ({
  page,
}) => {
  // The deployment's rules as GET /api/config gives them to the web app.
  await page.route('**/api/config', async (route) => {
    const config: ApiAnswer<'GET /api/config'> = await (await route.fetch()).json();
    await route.fulfill({ json: { ...config, schoolEmailDomain: 'richmond.edu' } });
  });
  await page.goto('/sign-up');
  const email = page.getByLabel('Email Address (@richmond.edu)');
  await email.fill('someone@vcu.edu');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('Use your @richmond.edu address')).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText(MESSAGES.schoolEmail)).toHaveCount(0);
});

test('sign-in shows its validation and the server message under "! Error !"', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText(MESSAGES.passwordRequired)).toBeVisible();

  const stranger = newStudent('stranger');
  await page.getByLabel('Email address').fill(stranger.email);
  await page.getByLabel('Password').fill(stranger.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  const error = page.getByRole('alert');
  await expect(error).toContainText('! Error !');
  await expect(error).toContainText('Wrong e-mail or password');
  await expect(page).toHaveURL(/\/sign-in$/);
});

test('the profile form shows its validation messages', async ({ page, makeUser }) => {
  const user = await makeUser('profiler');
  await signInBrowser(page, user, '/profile');
  await page.getByLabel('Email').fill('someone@gmail.com');
  await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(
    new RegExp(PASSWORD_HINT),
  );
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByLabel('GroupMe link').fill('https://example.com/group');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByText(MESSAGES.schoolEmail)).toBeVisible();
  await expect(page.getByText(MESSAGES.passwordLength)).toBeVisible();
  await expect(page.getByText(groupmeMessage)).toBeVisible();
  // Nothing was saved.
  const me = await user.api.call('GET /api/auth/me');
  expect(me).toMatchObject({ email: user.email, groupmelink: user.groupmelink });
});

test('forgot and reset password show their validation messages', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByRole('button', { name: 'Send Password' }).click();
  await expect(page.getByText(MESSAGES.emailRequired)).toBeVisible();
  await page.getByLabel('Email address').fill('not-an-email');
  await page.getByRole('button', { name: 'Send Password' }).click();
  await expect(page.getByText(MESSAGES.schoolEmail)).toBeVisible();

  await page.goto('/reset-password/not-a-real-token');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText(MESSAGES.passwordRequired)).toBeVisible();
  await expect(page.getByLabel('New password')).toHaveAccessibleDescription(
    new RegExp(`^${PASSWORD_HINT}`),
  );
  await page.getByLabel('New password').fill('short');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText(MESSAGES.passwordLength)).toBeVisible();
  await page.getByLabel('New password').fill('goodpass123');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('alert')).toContainText('invalid or has expired');
});
