import { PAGE_SIZE } from '@campus-books/common/constants';
import { IMAGE_BUDGET_PAGE } from './lighthouse';
import type { BenchResult, BudgetCheck } from './results';
import { BUDGET, check, notMeasured, type BudgetFigure } from './budget-limits';

/**
 * The browser's budgets (Lighthouse): scores and timings, the home page's bytes, the covers' bytes.
 * The scores are yes-or-no conditions, not margin figures: a score out of 100 against ≥ 98 can never
 * be more than 2 % inside its limit, so the Lighthouse budget's margin is that of LCP, TBT and CLS.
 */
export function checkPageBudgets(result: BenchResult): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  let name: string;
  const pages = result.lighthouse?.pages ?? [];
  name =
    'Lighthouse mobile: performance ≥ 98, accessibility / best practices / SEO 100, CLS < 0.02, LCP ≤ 1.8 s, TBT ≤ 100 ms';
  checks.push(
    pages.length === 0
      ? notMeasured(name, 'Lighthouse not run')
      : check(
          name,
          pages
            .map((p) =>
              p.error
                ? `${p.page} not audited (${p.error})`
                : `${p.page} ${p.scores.performance}/${p.scores.accessibility}/${p.scores['best-practices']}/${p.scores.seo} CLS ${p.cls.toFixed(3)} LCP ${(p.lcpMs / 1000).toFixed(2)} s TBT ${p.tbtMs.toFixed(0)} ms`,
            )
            .join('; '),
          pages.flatMap((p): BudgetFigure[] => [
            {
              label: `${p.page} LCP`,
              value: p.lcpMs,
              limit: BUDGET.lcpMs,
              direction: '≤',
              unit: 'ms',
            },
            {
              label: `${p.page} TBT`,
              value: p.tbtMs,
              limit: BUDGET.tbtMs,
              direction: '≤',
              unit: 'ms',
            },
            { label: `${p.page} CLS`, value: p.cls, limit: BUDGET.cls, direction: '<', unit: '' },
          ]),
          pages.flatMap((p) => [
            {
              label: `${p.page} performance ≥ ${BUDGET.lighthousePerformance}`,
              ok: p.scores.performance >= BUDGET.lighthousePerformance,
            },
            {
              label: `${p.page} accessibility, best practices and SEO 100`,
              ok:
                p.scores.accessibility === 100 &&
                p.scores['best-practices'] === 100 &&
                p.scores.seo === 100,
            },
          ]),
        ),
  );
  name = 'Home first load ≤ 110 KB JS and ≤ 20 KB CSS (gzip)';
  const home = pages.find((p) => p.page === '/');
  checks.push(
    home
      ? check(
          name,
          `JS ${(home.jsGzipBytes / 1000).toFixed(1)} KB, CSS ${(home.cssGzipBytes / 1000).toFixed(1)} KB`,
          [
            {
              label: 'JS',
              value: home.jsGzipBytes / 1000,
              limit: BUDGET.homeJsBytes / 1000,
              direction: '≤',
              unit: 'KB',
            },
            {
              label: 'CSS',
              value: home.cssGzipBytes / 1000,
              limit: BUDGET.homeCssBytes / 1000,
              direction: '≤',
              unit: 'KB',
            },
          ],
        )
      : notMeasured(name, 'Lighthouse not run'),
  );

  name = 'Search page, 9 cards, 375 px: image bytes ≤ 150 KB';
  const images = pages.find((p) => p.page === IMAGE_BUDGET_PAGE)?.images;
  if (!images) checks.push(notMeasured(name, 'Lighthouse not run'));
  else if (images.error || images.requests === 0)
    checks.push(notMeasured(name, images.error ?? 'no image was downloaded'));
  else {
    // The catalogue's photos repeat, so some covers are downloaded once for several cards: the
    // budget is checked on the bytes of nine distinct covers as well (the mean cover × 9).
    const nineCovers = (images.transferBytes / images.requests) * PAGE_SIZE;
    const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
    checks.push(
      check(
        name,
        `${images.requests} distinct covers downloaded, ${kb(images.transferBytes)} (variants ${Object.entries(
          images.variants,
        )
          .map(([v, n]) => `${v}×${n}`)
          .join(', ')}); ${PAGE_SIZE} distinct covers ≈ ${kb(nineCovers)}`,
        [
          { label: 'covers downloaded', value: images.transferBytes },
          { label: `${PAGE_SIZE} distinct covers`, value: nineCovers },
        ].map(({ label, value }) => ({
          label,
          value: value / 1000,
          limit: BUDGET.searchImageBytes / 1000,
          direction: '≤' as const,
          unit: 'KB' as const,
        })),
      ),
    );
  }
  return checks;
}
