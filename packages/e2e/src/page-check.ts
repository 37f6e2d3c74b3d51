import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo } from '@playwright/test';

const SCREENSHOTS = path.resolve(import.meta.dirname, '..', 'screenshots');

/**
 * How often `settle` looks, and how long it waits at most. A locator assertion looks again after
 * 100, 250, 500 and then every 1,000 ms: a page ready after 530 ms was seen at ~850 ms, about
 * 0.4 s lost on each of the route pages' hundreds of openings.
 */
const SETTLE_POLL = { intervals: [50], timeout: 20_000 };

/** Waits until the page has settled: no 'Loading...' left and the page's own marker visible. */
export async function settle(
  page: Page,
  ready: (page: Page) => ReturnType<Page['locator']>,
  options: { showsLoading?: boolean } = {},
) {
  await expect
    .poll(() => ready(page).first().isVisible(), { ...SETTLE_POLL, message: "the page's marker" })
    .toBe(true);
  if (!options.showsLoading) {
    const loading = page.getByText('Loading...', { exact: true });
    await expect
      .poll(() => loading.count(), { ...SETTLE_POLL, message: "'Loading...' left" })
      .toBe(0);
  }
  await page.evaluate(() => document.fonts.ready);
}

/**
 * axe over the whole page: every rule, no violation allowed; the message lists what failed. In
 * axe's legacy mode: axe runs in the page itself, rather than in each frame with the results put
 * together in a blank page the builder opens for it (for cross-origin frames, which the app has
 * none of). The same rules on the same page, 0.2–0.4 s instead of 0.7–1.3 s here.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  const report = violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes
        .slice(0, 5)
        .map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').join(' ')}`)
        .join('\n')}`,
  );
  expect(report, report.join('\n')).toEqual([]);
}

/**
 * Screenshots are for people to look at (long words, other scripts, every width): taken on a
 * developer's run, not in CI's (CI=true), whose clean clone nobody opens, unless E2E_SCREENSHOTS=1.
 * Each full-page PNG cost ~0.5 s of a busy machine's two cores: 209 of them in a run.
 */
const TAKE_SCREENSHOTS = (process.env.E2E_SCREENSHOTS ?? (process.env.CI ? '0' : '1')) === '1';

/** screenshots/<project>/<name>.png, full page (see TAKE_SCREENSHOTS). */
export async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  const dir = path.join(SCREENSHOTS, testInfo.project.name);
  await mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true, scale: 'css' });
}

/** The smallest tap target on phones, in CSS px (WCAG 2.5.5, and Apple's and Google's guides). */
export const MIN_TAP_TARGET = 44;

/**
 * How far under 44 px a measured box may read and still be 44 px. Layout runs in 1/64 px, and a
 * box placed at a fractional offset (a menu positioned by a transform) reads back as 43.99997.
 */
const SUBPIXEL = 0.5;

/** The control is at least 44 px high (and wide, with `{ width: true }`); returns its box. */
export async function expectTapTarget(
  control: Locator,
  { width = false, label }: { width?: boolean; label?: string } = {},
) {
  const box = await control.boundingBox();
  expect(box, label).not.toBeNull();
  expect(box!.height, label).toBeGreaterThanOrEqual(MIN_TAP_TARGET - SUBPIXEL);
  if (width) expect(box!.width, label).toBeGreaterThanOrEqual(MIN_TAP_TARGET - SUBPIXEL);
  return box!;
}

/**
 * Every visible control of the page (links, buttons, fields) is at least 44 × 44 px. Exempt, as in
 * WCAG 2.5.8: links inside a sentence (inline in running text); a checkbox or radio counts with its
 * label. Returns the offenders so a test can name them.
 */
export async function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const offenders: string[] = [];
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"]';
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (element.closest('[aria-hidden="true"], [inert]')) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      // Visually hidden until focused (the skip link): clipped away, so nothing to tap.
      if (style.clipPath.startsWith('inset(50%') || style.clip.startsWith('rect(0')) continue;
      let target: HTMLElement = element;
      if (element instanceof HTMLInputElement && ['checkbox', 'radio'].includes(element.type)) {
        const byId = element.id
          ? document.querySelector<HTMLElement>(`label[for="${element.id}"]`)
          : null;
        target = element.closest('label') ?? byId ?? element;
      }
      const box = target.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue; // not rendered (closed menu, sr-only)
      if (box.width <= 1 && box.height <= 1) continue;
      const inSentence =
        element.tagName === 'A' &&
        style.display === 'inline' &&
        (element.parentElement?.textContent ?? '').trim().length >
          (element.textContent ?? '').trim().length;
      if (inSentence) continue;
      if (box.width < min || box.height < min) {
        const name = (
          element.getAttribute('aria-label') ??
          element.textContent ??
          element.getAttribute('name') ??
          ''
        )
          .trim()
          .replace(/\s+/g, ' ')
          .slice(0, 40);
        offenders.push(
          `${element.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        );
      }
    }
    return offenders;
  }, MIN_TAP_TARGET - SUBPIXEL);
}

/** Roles a person operates; each must have a name in Chromium's accessibility tree (WCAG 4.1.2). */
const OPERABLE_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'combobox',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'tab',
  'menuitem',
  'option',
  'listbox',
]);

interface AxNode {
  ignored: boolean;
  role?: { value?: string };
  name?: { value?: string };
  properties?: { name: string; value: { value?: unknown } }[];
}

/**
 * The controls Chromium's accessibility tree exposes without a name, as 'role' entries. The tree
 * is what a screen reader reads: a name here is the one it speaks.
 */
export async function unnamedControls(page: Page): Promise<string[]> {
  const session = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await session.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
    return nodes
      .filter((node) => !node.ignored && OPERABLE_ROLES.has(String(node.role?.value ?? '')))
      .filter((node) => !node.properties?.some((p) => p.name === 'hidden' && p.value.value))
      .filter((node) => !String(node.name?.value ?? '').trim())
      .map((node) => String(node.role?.value));
  } finally {
    await session.detach();
  }
}

/** How many operable nodes the tree holds (so a check of names never passes on an empty tree). */
export async function namedControlCount(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await session.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
    return nodes.filter(
      (node) =>
        !node.ignored &&
        OPERABLE_ROLES.has(String(node.role?.value ?? '')) &&
        String(node.name?.value ?? '').trim(),
    ).length;
  } finally {
    await session.detach();
  }
}

/**
 * Tabs through the page (up to `limit` stops) and returns the stops whose focus cannot be seen: no
 * outline of at least 2 px and no box shadow (WCAG 2.4.7). Also returns how many stops it made.
 */
export async function invisibleFocusStops(
  page: Page,
  limit = 25,
): Promise<{ stops: number; first: string | undefined; invisible: string[] }> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const invisible: string[] = [];
  let first: string | undefined;
  let stops = 0;
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const stop = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null;
      const style = getComputedStyle(element);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
      const shadow = style.boxShadow !== 'none';
      const name = (element.getAttribute('aria-label') ?? element.textContent ?? '')
        .trim()
        .replace(/\s+/g, ' ')
        .slice(0, 30);
      return { visible: outline || shadow, label: `${element.tagName.toLowerCase()} "${name}"` };
    });
    if (!stop) break;
    stops++;
    first ??= stop.label;
    if (!stop.visible) invisible.push(stop.label);
  }
  return { stops, first, invisible };
}

/**
 * WCAG 1.4.12's text spacing (line height 1.5, paragraphs 2 em, letters 0.12 em, words 0.16 em)
 * applied to every element; returns the elements whose text no longer fits the box that clips it
 * (a deliberate two-line clamp is not clipping by spacing: the full text is one tap away).
 */
export async function clippedUnderTextSpacing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // A constructed sheet: the page's Content-Security-Policy refuses an inline <style>.
    const spacing: CSSStyleSheet & { textSpacing?: true } = new CSSStyleSheet();
    spacing.textSpacing = true;
    spacing.replaceSync(`* { line-height: 1.5 !important; letter-spacing: 0.12em !important;
      word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }`);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, spacing];
    const clipped: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const style = getComputedStyle(element);
      const clips = ['hidden', 'clip'].some((v) => style.overflowX === v || style.overflowY === v);
      if (!clips || style.webkitLineClamp !== 'none' || style.textOverflow === 'ellipsis') continue;
      if (style.clipPath.startsWith('inset(50%') || style.position === 'absolute') continue;
      if (!element.textContent?.trim() || element.querySelector('img, svg, video')) continue;
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (
        element.scrollWidth > element.clientWidth + 1 ||
        element.scrollHeight > element.clientHeight + 1
      ) {
        clipped.push(
          `${element.tagName.toLowerCase()} "${element.textContent.trim().slice(0, 30)}"`,
        );
      }
    }
    return clipped;
  });
}

/** Takes back the spacing `clippedUnderTextSpacing` applied. */
export async function removeTextSpacing(page: Page): Promise<void> {
  await page.evaluate(() => {
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter(
      (sheet) => !(sheet as CSSStyleSheet & { textSpacing?: true }).textSpacing,
    );
  });
}

/**
 * The page scrolls sideways (reflow lost): the innermost elements that reach past the viewport's
 * right edge, so a failure names what to fix. Empty when the page fits.
 */
export async function widerThanViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    // What a scroller of its own holds (a row of thumbnails) may reach past the edge: it scrolls
    // inside its box, the page does not.
    const scrolled = (element: HTMLElement) => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement) {
        if (['auto', 'scroll'].includes(getComputedStyle(up).overflowX)) return true;
      }
      return false;
    };
    const wide = [...document.querySelectorAll<HTMLElement>('body *')].filter((element) => {
      const box = element.getBoundingClientRect();
      return (
        box.width > 0 &&
        box.right > width + 1 &&
        getComputedStyle(element).position !== 'fixed' &&
        !scrolled(element)
      );
    });
    return wide
      .filter((element) => !wide.some((other) => other !== element && element.contains(other)))
      .slice(0, 8)
      .map((element) => {
        const box = element.getBoundingClientRect();
        const text = element.textContent?.trim().slice(0, 30) ?? '';
        return `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 60)} "${text}" right=${Math.round(box.right)}`;
      });
  });
}

/** Elements that still animate or transition for longer than 0.1 s (prefers-reduced-motion). */
export async function movingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seconds = (value: string) =>
      Math.max(
        ...value.split(',').map((part) => parseFloat(part) * (part.includes('ms') ? 0.001 : 1)),
      );
    const moving: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>('body *')) {
      const style = getComputedStyle(element);
      const animates = style.animationName !== 'none' && seconds(style.animationDuration) > 0.1;
      const transitions =
        style.transitionProperty !== 'none' && seconds(style.transitionDuration) > 0.1;
      if (animates || transitions)
        moving.push(`${element.tagName.toLowerCase()}.${element.className}`);
    }
    return moving;
  });
}

/**
 * Form controls whose border contrasts less than 3:1 with what surrounds them (WCAG 1.4.11: a
 * person must see where a field is). Colours are read back through a canvas, whatever the CSS
 * colour space.
 */
export async function lowContrastControlBorders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas').getContext('2d', {
      willReadFrequently: true,
    })!;
    const rgba = (color: string) => {
      canvas.clearRect(0, 0, 1, 1);
      canvas.fillStyle = color;
      canvas.fillRect(0, 0, 1, 1);
      return [...canvas.getImageData(0, 0, 1, 1).data] as [number, number, number, number];
    };
    const luminance = ([r, g, b]: number[]) => {
      const [lr, lg, lb] = [r!, g!, b!].map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * lr! + 0.7152 * lg! + 0.0722 * lb!;
    };
    const surrounding = (element: Element) => {
      for (let node = element.parentElement; node; node = node.parentElement) {
        const color = rgba(getComputedStyle(node).backgroundColor);
        if (color[3] > 0) return color;
      }
      return [255, 255, 255, 255];
    };
    const low: string[] = [];
    const controls =
      'input:not([type="hidden"],[type="file"],[type="radio"],[type="checkbox"]), select, textarea';
    for (const element of document.querySelectorAll<HTMLElement>(controls)) {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      if (
        box.width === 0 ||
        style.visibility === 'hidden' ||
        parseFloat(style.borderBottomWidth) === 0
      )
        continue;
      const border = rgba(style.borderBottomColor);
      const [a, b] = [luminance(border), luminance(surrounding(element))];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < 3) {
        const name =
          element.getAttribute('aria-label') ?? element.getAttribute('name') ?? element.id;
        low.push(`${element.tagName.toLowerCase()} "${name}" ${ratio.toFixed(2)}:1`);
      }
    }
    return low;
  });
}
