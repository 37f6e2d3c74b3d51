import { displayName } from '@campus-books/common/display';
import { expect, openMenu, test } from '../../src/fixtures';
import { bookCover } from '../../src/images';
import { linkIn, VERIFY_SUBJECT, waitForMail } from '../../src/mail';
import { jpegFile, uploadImages } from '../../src/picker';
import { newStudent } from '../../src/users';

test('a new student signs up, verifies, signs in and lists a book that buyers then find', async ({
  page,
  adoptUser,
}) => {
  const student = newStudent('seller');
  const bookName = `organic chemistry ${student.lastName.slice(-5)}`;

  await test.step('sign up', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Start Selling' }).click();
    await expect(page).toHaveURL(/\/sign-up$/);
    await page.getByLabel('First name').fill(student.firstName);
    await page.getByLabel('Last name').fill(student.lastName);
    await expect(page.getByText(`${student.firstName} ${student.lastName}`)).toBeVisible();
    await page.getByLabel('Email Address (.edu)').fill(student.email);
    await page.getByLabel('Password', { exact: true }).fill(student.password);
    await page.getByLabel('GroupMe link').fill(student.groupmelink);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByRole('status')).toContainText('verification link');
  });

  await test.step('signing in before verifying is refused with a way to resend', async () => {
    await page.getByLabel('Email address').fill(student.email);
    await page.getByLabel('Password').fill(student.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('alert')).toContainText('not verified');
    await expect(page.getByRole('button', { name: 'Resend verification e-mail' })).toBeVisible();
  });

  await test.step('open the verification link from the mail', async () => {
    const mail = await waitForMail(student.email, VERIFY_SUBJECT);
    const link = linkIn(mail, '/verify-email/');
    await page.goto(link);
    await expect(page.getByRole('status')).toContainText('verified');
    // Opened a second time, the used link says so and points to sign-in.
    await page.goto(link);
    await expect(page.getByRole('status')).toContainText('already verified — sign in');
    await page.getByRole('main').getByRole('link', { name: 'Sign In', exact: true }).click();
  });

  await test.step('sign in', async () => {
    await expect(page).toHaveURL(/\/sign-in/);
    await page.getByLabel('Email address').fill(student.email);
    await page.getByLabel('Password').fill(student.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/$/);
    await adoptUser(student);
  });

  await test.step('create a listing with a photo', async () => {
    await openMenu(page);
    await page.getByRole('link', { name: 'New Listing' }).first().click();
    await expect(page.getByRole('heading', { name: 'Create a Listing' })).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill(bookName);
    await page.getByLabel('Course Number').fill('205');
    await page.getByLabel('Description').fill('Barely used, a few notes in pencil.');
    await page.getByLabel('Address').fill('Gottwald Science Center');
    await page.getByLabel('Excellent').check();
    await page.getByLabel('Regular price ($)').fill('45');
    // No school is pre-checked; the ones checked are saved as the campus lists them.
    const schools = page.getByRole('group', { name: 'School' });
    await expect(schools.getByRole('checkbox', { checked: true })).toHaveCount(0);
    await schools.getByLabel('Arts & Sciences').check();
    await schools.getByLabel('Jepson').check();
    await uploadImages(page.locator('form'), [jpegFile('cover.jpg', await bookCover(30))], 1);
    await page.getByRole('button', { name: 'Create listing' }).click();
    await expect(page).toHaveURL(/\/listing\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name: bookName })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Your Listing' })).toBeDisabled();
    await expect(page.getByText('Jepson, Arts & Sciences', { exact: true })).toBeVisible();
  });

  await test.step('it shows in Recent Additions on the home page', async () => {
    await page.goto('/');
    const recent = page.getByRole('region', { name: 'Recent Additions' });
    await expect(recent.getByRole('link', { name: bookName })).toBeVisible();
    await expect(recent.locator(`img[alt="${displayName(bookName)}"]`)).toHaveAttribute(
      'src',
      /\/api\/images\//,
    );
  });

  await test.step('it is found by search and opens', async () => {
    await page.getByPlaceholder('Start Searching...').fill(bookName);
    await page.getByPlaceholder('Start Searching...').press('Enter');
    await expect(page).toHaveURL(/\/search\?.*searchTerm=/);
    const results = page.getByRole('region', { name: 'Listing results' });
    await results.getByRole('link', { name: bookName }).click();
    await expect(page.getByRole('heading', { level: 1, name: bookName })).toBeVisible();
    await expect(page.getByText('$45.00').first()).toBeVisible();
  });
});
