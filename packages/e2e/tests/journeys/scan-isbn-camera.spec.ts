import type { Page } from '@playwright/test';
import { chromiumFlags, PAGE_CHROMIUM } from '../../playwright.config';
import {
  cameraStarts,
  heldCameraStreams,
  holdCamera,
  liveCameraTracks,
  recordCamera,
  releaseCamera,
} from '../../src/camera';
import { expect, signInBrowser, test } from '../../src/fixtures';
import { expectNoAxeViolations, screenshot, smallTapTargets } from '../../src/page-check';

/** The fake providers know this book (test/support/fake-book-providers.ts "hit"). */
const ISBN = '9780262033848';

// Chromium's fake camera (a moving test pattern, no barcode): the scanner runs until closed.
test.use({
  launchOptions: {
    executablePath: PAGE_CHROMIUM,
    args: [
      ...chromiumFlags,
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
    ],
  },
  permissions: ['camera'],
});

test.beforeEach(async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the scanner is a phone feature');
  await recordCamera(page);
});

/** What the page is told when the phone shows another app, and when it comes back. */
async function setPageHidden(page: Page, isHidden: boolean): Promise<void> {
  await page.evaluate((hidden) => {
    Object.defineProperty(document, 'visibilityState', {
      configurable: true,
      get: () => (hidden ? 'hidden' : 'visible'),
    });
    document.dispatchEvent(new Event('visibilitychange'));
  }, isHidden);
}

const scanning = 'Point the camera at the barcode on the back cover.';

test('the scanner starts the camera once while the ISBN is typed, and every way out stops it', async ({
  page,
  makeUser,
}, testInfo) => {
  const seller = await makeUser('camera');
  await signInBrowser(page, seller, '/create-listing');
  const scan = page.getByRole('button', { name: 'Scan ISBN' });
  const stop = page.getByRole('button', { name: 'Stop scanning' });
  const status = page.getByRole('status').filter({ hasText: /camera|barcode/ });

  await test.step('typing the ISBN by hand while the camera runs starts it only once', async () => {
    await scan.click();
    await expect(status).toHaveText(scanning);
    // The open scanner stays accessible: labelled controls, 44 px targets.
    await screenshot(page, testInfo, 'scan-isbn-open');
    await expectNoAxeViolations(page);
    expect(await smallTapTargets(page)).toEqual([]);
    await page.getByLabel('ISBN', { exact: true }).pressSequentially(ISBN);
    await expect(page.getByTestId('autofill-note')).toContainText('Filled in from the ISBN');
    expect(await cameraStarts(page)).toBe(1);
    await expect.poll(() => liveCameraTracks(page)).toBe(1);
  });

  await test.step('"Stop scanning" stops every camera track', async () => {
    await stop.click();
    await expect(scan).toBeVisible();
    await expect.poll(() => liveCameraTracks(page)).toBe(0);
  });

  await test.step('Escape closes the scanner, stops the camera and returns to "Scan ISBN"', async () => {
    await scan.click();
    await expect(status).toHaveText(scanning);
    await expect.poll(() => liveCameraTracks(page)).toBe(1);
    await page.keyboard.press('Escape');
    await expect(scan).toBeFocused();
    await expect(page.getByLabel('Camera view of the barcode')).toHaveCount(0);
    await expect.poll(() => liveCameraTracks(page)).toBe(0);
    expect(await cameraStarts(page)).toBe(2);
  });

  await test.step('a camera that starts after the scanner was closed is stopped at once', async () => {
    await holdCamera(page);
    await scan.click();
    await expect.poll(() => heldCameraStreams(page)).toBe(1);
    await stop.click();
    await releaseCamera(page);
    await expect.poll(() => heldCameraStreams(page)).toBe(0);
    await expect.poll(() => liveCameraTracks(page)).toBe(0);
    expect(await cameraStarts(page)).toBe(3);
  });

  await test.step('the scanner opens again, and leaving the page stops it', async () => {
    await scan.click();
    await expect(status).toHaveText(scanning);
    await expect.poll(() => liveCameraTracks(page)).toBe(1);
    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: 'About' })
      .click();
    await expect(page).toHaveURL(/\/about$/);
    await expect.poll(() => liveCameraTracks(page)).toBe(0);
    expect(await cameraStarts(page)).toBe(4);
  });
});

test('on the search page, typing beside the scanner keeps one camera, and folding the filters away stops it', async ({
  page,
}) => {
  await page.goto('/search');
  const filters = page.getByRole('button', { name: 'Search filters' });
  await filters.click();
  await page.getByRole('button', { name: 'Scan ISBN' }).click();
  await expect(page.getByRole('status').filter({ hasText: scanning })).toBeVisible();
  await page.getByLabel('Search by Name').pressSequentially('calculus');
  await expect(page.getByLabel('Search by Name')).toHaveValue('calculus');
  expect(await cameraStarts(page)).toBe(1);
  await expect.poll(() => liveCameraTracks(page)).toBe(1);

  // Another app in front (the phone's camera app taking a photo, say): the camera is released,
  // and starts again on the student's return.
  await setPageHidden(page, true);
  await expect.poll(() => liveCameraTracks(page)).toBe(0);
  await setPageHidden(page, false);
  await expect.poll(() => liveCameraTracks(page)).toBe(1);
  expect(await cameraStarts(page)).toBe(2);

  // The filters fold away on a phone: the hidden scanner must not keep filming.
  await filters.click();
  await expect(page.getByRole('button', { name: 'Scan ISBN' })).toBeHidden();
  await expect.poll(() => liveCameraTracks(page)).toBe(0);
  await filters.click();
  await expect(page.getByRole('button', { name: 'Scan ISBN' })).toBeVisible();
});
