import { displayName } from '@campus-books/common/display';
import { CONDITIONS } from '@campus-books/common/constants';
import type { Page } from '@playwright/test';
import { defaultCampus } from '../../src/campus';
import { expect, isPhone, test } from '../../src/fixtures';
import { createListing } from '../../src/users';

const COUNT = 20;
const major = defaultCampus().majors[0]!;

/** The 20 books: conditions, schools, majors, names and prices spread so each filter picks a few. */
function book(i: number, tag: string) {
  return {
    name: `${tag} ${i % 5 === 0 ? 'atlas' : 'reader'} vol ${i}`,
    condition: CONDITIONS[i % 4]!,
    // A permutation of 5..100, unrelated to the creation order.
    regularPrice: (((i * 7 + 3) % COUNT) + 1) * 5,
    schools: i % 4 === 1 ? ['Jepson'] : ['Bschool'],
    major: i % 5 === 2 ? major.value : '',
  };
}

async function openFilters(page: Page) {
  if (!isPhone(page)) return;
  const toggle = page.getByRole('button', { name: /^(search )?filters$/i });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

test('search: every filter and sort, paging to the end, Clear Filters, back and forward', async ({
  page,
  makeUser,
}) => {
  test.setTimeout(90_000);
  const seller = await makeUser('bookworm');
  const tag = `zq${seller.lastName.slice(-5).toLowerCase()}`;
  const course = String(90000 + Math.floor(Math.random() * 9999));
  const books = Array.from({ length: COUNT }, (_, i) => book(i, tag));
  for (const b of books) await createListing(seller, { ...b, courseNumber: course });

  const results = page.getByRole('region', { name: 'Listing results' });
  const cards = results.getByRole('listitem');
  const filters = page.getByRole('form', { name: 'Filters' });
  const names = (pick: (b: ReturnType<typeof book>, i: number) => boolean) =>
    books.filter(pick).map((b) => b.name);
  const expectNames = async (expected: string[]) => {
    await expect(cards).toHaveCount(expected.length);
    for (const name of expected) {
      await expect(
        results.getByRole('link', { name: displayName(name), exact: true }),
      ).toBeVisible();
    }
  };
  const start = async () => {
    await page.goto(`/search?courseNumber=${course}`);
    await expect(page).toHaveURL(/status=active_or_none/);
    await expect(cards.first()).toBeVisible();
    await openFilters(page);
  };

  // A phone's two columns never end on a lone card while more can be loaded: of a first page of 9,
  // 8 show until "Show more" fills the row.
  const firstPage = isPhone(page) ? 8 : 9;
  await test.step('pages of 9, "Show more" to the end', async () => {
    await start();
    await expect(cards).toHaveCount(firstPage);
    const showMore = page.getByRole('button', { name: 'Show more' });
    await showMore.click();
    await expect(cards).toHaveCount(18);
    await showMore.click();
    await expect(cards).toHaveCount(COUNT);
    await expect(showMore).toHaveCount(0);
  });

  await test.step('condition filter', async () => {
    await start();
    await filters.getByRole('group', { name: 'Condition' }).getByLabel('New').check();
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/condition=mint/);
    await expectNames(names((b) => b.condition === 'mint'));
  });

  await test.step('school filter', async () => {
    await start();
    await filters.getByRole('group', { name: 'School' }).getByLabel('Jepson').check();
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/schools=Jepson/);
    await expectNames(names((b) => b.schools.includes('Jepson')));
  });

  await test.step('a link of the original API (?Jepson=true) still filters by school', async () => {
    await page.goto(`/search?courseNumber=${course}&Jepson=true`);
    await expectNames(names((b) => b.schools.includes('Jepson')));
    await openFilters(page);
    await expect(filters.getByRole('group', { name: 'School' }).getByLabel('Jepson')).toBeChecked();
  });

  await test.step('major filter', async () => {
    await start();
    const combobox = filters.getByRole('combobox', { name: 'Major' });
    await combobox.fill(major.label);
    await page.getByRole('option', { name: major.label, exact: true }).click();
    await expect(combobox).toHaveValue(major.label);
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    await expectNames(names((b) => b.major === major.value));
  });

  await test.step('name filter', async () => {
    await start();
    await filters.getByLabel('Search by Name').fill('atlas');
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/searchTerm=/);
    await expectNames(names((b) => b.name.includes('atlas')));
  });

  await test.step('course number filter', async () => {
    await page.goto('/search');
    await openFilters(page);
    await filters.getByLabel('Course Number').fill(course);
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`courseNumber=${course}`));
    await expect(cards).toHaveCount(firstPage);
  });

  await test.step('each sort', async () => {
    await start();
    const byPrice = [...books].sort((a, b) => a.regularPrice - b.regularPrice);
    const sorts: [string, string][] = [
      ['Price low to high', byPrice[0]!.name],
      ['Price high to low', byPrice[COUNT - 1]!.name],
      ['Oldest', books[0]!.name],
      ['Latest', books[COUNT - 1]!.name],
    ];
    await expect(page.getByLabel('Sort by')).toHaveValue('latest');
    for (const [label, first] of sorts) {
      await page.getByLabel('Sort by').selectOption({ label });
      await expect(
        cards.first().getByRole('link', { name: displayName(first), exact: true }),
      ).toBeVisible();
    }
  });

  await test.step('Clear Filters, then back and forward', async () => {
    await start();
    await filters.getByRole('group', { name: 'Condition' }).getByLabel('Poor').check();
    await filters.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/condition=poor/);
    await expectNames(names((b) => b.condition === 'poor'));
    await openFilters(page);
    await filters.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(page).toHaveURL(/\/search\?status=active_or_none$/);
    await openFilters(page);
    await expect(filters.getByLabel('Course Number')).toHaveValue('');
    await page.goBack();
    await expect(page).toHaveURL(/condition=poor/);
    await expectNames(names((b) => b.condition === 'poor'));
    await openFilters(page);
    await expect(filters.getByLabel('Course Number')).toHaveValue(course);
    await expect(
      filters.getByRole('group', { name: 'Condition' }).getByLabel('Poor'),
    ).toBeChecked();
    await page.goForward();
    await expect(page).toHaveURL(/\/search\?status=active_or_none$/);
    await expect(filters.getByLabel('Course Number')).toHaveValue('');
  });
});
