import { activeCampus, setActiveCampus, type Campus } from '@campus-books/common/active-campus';
import type { CampusConfig } from '@campus-books/common/campus-config';
import { CAMPUS_ELEMENT_ID } from '@campus-books/common/server-rendering';

/**
 * The campus the app shows is the running server's, not one compiled into the bundle: every page
 * the server sends carries it (a JSON <script id="campus-config">), and GET /api/campus answers it
 * where a page does not (the Vite dev server's). It is set once, before anything renders: components
 * read it with useCampus(), plain modules with activeCampus() inside their functions (never at a
 * module's top level, which runs before it is set).
 */

/** The campus embedded in the page, or null when the page carries none. */
export function readEmbeddedCampus(page: Pick<Document, 'getElementById'>): CampusConfig | null {
  const json = page.getElementById(CAMPUS_ELEMENT_ID)?.textContent;
  if (!json) return null;
  // As the server validated it at start (campusConfigSchema), like the page's SSR state: the schema
  // is not run again here, as it would bring zod's core (~27 KB gzip, measured) into every first load.
  return JSON.parse(json) as CampusConfig;
}

/** GET /api/campus's answer, validated (a page without the embedded campus: the dev server's). */
async function fetchCampus(fetchFn: typeof fetch): Promise<CampusConfig> {
  const response = await fetchFn('/api/campus', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET /api/campus answered ${response.status}`);
  // Loaded only here, so zod stays out of the pages that carry their campus.
  const { campusConfigSchema } = await import('@campus-books/common/campus-config');
  return campusConfigSchema.parse(await response.json());
}

/** Makes the server's campus the active one: the page's, else fetched. Resolves once it is set. */
export async function loadCampus(
  page: Pick<Document, 'getElementById'> = document,
  fetchFn: typeof fetch = fetch,
): Promise<Campus> {
  const config = readEmbeddedCampus(page) ?? (await fetchCampus(fetchFn));
  setActiveCampus(config);
  return activeCampus();
}

/** The campus served: its names, lists and rules (see common/active-campus). */
export function useCampus(): Campus {
  return activeCampus();
}
