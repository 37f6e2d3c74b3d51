import { expect, isPhone, signInBrowser, test } from '../../src/fixtures';
import { expectNoAxeViolations, screenshot, smallTapTargets } from '../../src/page-check';
import { makeModerator } from '../../src/moderator';
import { deleteUser } from '../../src/users';

test('a moderator reads the campus statistics: weekly counts and what students searched in vain', async ({
  page,
  makeUser,
}, testInfo) => {
  const student = await makeUser('searcher');
  const term = `quantum basket weaving ${student.lastName.slice(-5).toLowerCase()}`;
  // Twice: a term searched once never shows (it could be one student's own words).
  for (let i = 0; i < 2; i += 1) {
    await student.api.call('GET /api/listing/get', { query: { searchTerm: term } });
  }
  const moderator = await makeModerator();
  try {
    await signInBrowser(page, moderator, '/moderation');
    await page.getByRole('link', { name: 'Campus statistics' }).click();
    await expect(page.getByRole('heading', { name: 'Campus statistics', level: 1 })).toBeVisible();
    const weekly = page.getByRole('table', { name: /per week/ });
    await expect(weekly.getByRole('row')).toHaveCount(13);
    await expect(weekly.getByRole('columnheader', { name: 'Active sellers' })).toBeVisible();
    const missed = page.getByRole('table', { name: /without results/ });
    await expect(missed.getByRole('row').filter({ hasText: term })).toContainText('2');
    await page.getByLabel('Period').selectOption('4');
    await expect(weekly.getByRole('row')).toHaveCount(5);
    await expectNoAxeViolations(page);
    if (isPhone(page)) {
      expect(await smallTapTargets(page)).toEqual([]);
      // At 320 px the wide table scrolls in its own region; the page itself does not.
      await page.setViewportSize({ width: 320, height: 700 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(overflow).toBeLessThanOrEqual(320);
    }
    await screenshot(page, testInfo, 'statistics');
  } finally {
    await deleteUser(moderator);
  }
});
