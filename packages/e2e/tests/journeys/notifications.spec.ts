import { expect, signInBrowser, test } from '../../src/fixtures';

test('a student chooses what reaches them, kind by kind, with quiet hours, from the profile', async ({
  page,
  makeUser,
}) => {
  const student = await makeUser('notifications');

  await test.step('the profile links to the choices, which start as before', async () => {
    await signInBrowser(page, student, '/profile');
    await page.getByRole('link', { name: /What reaches you/ }).click();
    await expect(page.getByRole('heading', { name: 'What reaches you' })).toBeVisible();
    await expect(page.getByRole('checkbox', { name: 'Messages: E-mail' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'End of term: E-mail' })).not.toBeChecked();
    await expect(page.getByLabel('From')).toHaveCount(0);
  });

  await test.step('no ratings, alerts by mail only, messages by push only, quiet from 22:00 to 07:00', async () => {
    await expect(page.getByRole('checkbox', { name: 'Ratings: Push' })).toHaveCount(0);
    await page.getByRole('checkbox', { name: 'Ratings: E-mail' }).uncheck();
    await page.getByRole('checkbox', { name: 'Alerts: Push' }).uncheck();
    await page.getByRole('checkbox', { name: 'Messages: E-mail' }).uncheck();
    await page.getByRole('checkbox', { name: /during quiet hours/ }).check();
    await expect(page.getByLabel('From')).toHaveValue('22:00');
    await page.getByLabel('Until').fill('22:00');
    await page.getByRole('button', { name: 'Save my choices' }).click();
    await expect(page.getByRole('alert')).toContainText('different start and end times');
    await page.getByLabel('Until').fill('07:00');
    await page.getByRole('button', { name: 'Save my choices' }).click();
    await expect(page.getByText('Your notification choices are saved')).toBeVisible();
  });

  await test.step('the choices stay, and the profile’s messages switch follows them', async () => {
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Ratings: E-mail' })).not.toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Alerts: Push' })).not.toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Alerts: E-mail' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Messages: Push' })).toBeChecked();
    await expect(page.getByLabel('Until')).toHaveValue('07:00');
    await page.goto('/profile');
    await expect(
      page.getByRole('checkbox', { name: 'E-mail me about messages I have not read' }),
    ).not.toBeChecked();
  });
});
