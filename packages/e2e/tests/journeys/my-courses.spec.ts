import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, isPhone, signInBrowser, test } from '../../src/fixtures';
import { expectNoAxeViolations, screenshot } from '../../src/page-check';
import { createListing } from '../../src/users';

const SCHEDULE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/fall-schedule.ics',
);

test('a student imports a schedule on a phone, sees each course with its cheapest copy, and asks to be told of the rest', async ({
  page,
  makeUser,
}, testInfo) => {
  test.skip(!isPhone(page), 'the phone journey (375 px); the page checks cover the laptop');
  const seller = await makeUser('courseseller');
  const student = await makeUser('coursestudent');
  const tag = seller.lastName.slice(-5).toLowerCase();
  const title = `principles of economics ${tag}`;
  await createListing(seller, {
    name: title,
    subject: 'ECON',
    courseNumber: '101',
    regularPrice: 7,
  });

  await signInBrowser(page, student, '/my-courses');
  await expect(page.getByRole('heading', { level: 1, name: 'My courses' })).toBeVisible();

  await test.step('the .ics file is read: four courses, the lab folded into its course, advising left out', async () => {
    await page.getByLabel('Import your schedule (.ics)').setInputFiles(SCHEDULE);
    const report = page.getByRole('status').filter({ hasText: 'events of your schedule' });
    await expect(report).toContainText('Added');
    for (const course of ['ECON 101', 'MATH 211', 'CHEM 205', 'HIST 101']) {
      await expect(report).toContainText(course);
    }
    await expect(report).toContainText('Advising with Dr. Lee');
    const list = page.getByRole('region', { name: 'Your courses' });
    await expect(list.getByRole('listitem')).toHaveCount(4);
  });

  await test.step("each course shows its books; ECON 101 names the seller's copy at its price", async () => {
    const econ = page.getByRole('region', { name: 'ECON 101' });
    await expect(econ).toContainText(title, { ignoreCase: true });
    await expect(econ).toContainText('$7');
    // The term's cost at today's cheapest copies (other tests may list ECON 101 books too).
    await expect(page.getByText(/^Your term here today: \$\d/)).toBeVisible();
    await expectNoAxeViolations(page);
    await screenshot(page, testInfo, 'my-courses-imported');
  });

  await test.step('a course is removed by keyboard, and the list is kept by the server', async () => {
    const remove = page.getByRole('button', { name: 'Remove HIST 101' });
    await remove.focus();
    await page.keyboard.press('Enter');
    await expect(remove).toHaveCount(0);
    await page.reload();
    await expect(
      page.getByRole('region', { name: 'Your courses' }).getByRole('listitem'),
    ).toHaveCount(3);
  });

  await test.step('"Notify me for everything" makes the alerts once, however often it is pressed', async () => {
    const notify = page.getByRole('button', { name: 'Notify me for everything' });
    await notify.click();
    await expect(page.getByRole('link', { name: 'See your alerts' })).toBeVisible();
    await notify.click();
    await expect(page.getByRole('status').filter({ hasText: /alert/i })).toBeVisible();
    const alerts = await student.api.call('GET /api/alerts/get');
    const keys = alerts.map((a) => `${a.subject ?? ''} ${a.courseNumber}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

test('a book no one has listed says so once', async ({ page, makeUser }, testInfo) => {
  test.skip(!isPhone(page), 'a phone check (375 px)');
  const student = await makeUser('nocopy');
  // A book is known for the course by the student's alert for its ISBN; nobody has listed it.
  const isbn = '9780000777126';
  await student.api.call('POST /api/my-courses/add', { body: { text: 'hist 210' } });
  await student.api.call('POST /api/alerts/create', {
    body: { isbn, subject: 'HIST', courseNumber: '210' },
  });

  await signInBrowser(page, student, '/my-courses');
  const course = page.getByRole('region', { name: 'HIST 210' });
  await expect(course.getByText(`ISBN ${isbn}`).first()).toBeVisible();
  await expect(course.getByText('No copy on campus yet')).toHaveCount(1);
  await expect(course.getByText('No copy for sale now')).toHaveCount(0);
  await screenshot(page, testInfo, 'my-courses-no-copy');
});

test('a student types a list of courses into the Add courses box; an empty box adds nothing', async ({
  page,
  makeUser,
}) => {
  const student = await makeUser('coursetyper');
  await signInBrowser(page, student, '/my-courses');
  const box = page.getByRole('combobox', { name: 'Add courses' });
  const list = page.getByRole('region', { name: 'Your courses' });

  await test.step('an empty box is not sent', async () => {
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Added' })).toHaveCount(0);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  await test.step('a pasted list adds each course and empties the box', async () => {
    await box.fill('ECON 101, MATH-211 and CHEM 205');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const report = page.getByRole('status').filter({ hasText: 'Added' });
    for (const course of ['ECON 101', 'MATH 211', 'CHEM 205']) {
      await expect(report).toContainText(course);
    }
    await expect(list.getByRole('listitem')).toHaveCount(3);
    await expect(box).toHaveValue('');
  });
});
