import { activeCampus, setActiveCampus } from '@campus-books/common/active-campus';
import { CAMPUS_ELEMENT_ID } from '@campus-books/common/server-rendering';
import { afterEach, describe, expect, it } from 'vitest';
import { documentTitle } from '../components/page-title';
import { activeFilterChips } from '../features/search/active-filter-chips';
import { readFilters } from '../features/search/search-filters';
import { DEFAULT_CAMPUS, readCampusFile } from '../test/use-default-campus';
import { loadCampus } from './campus';

const PACIFIC_CREST = readCampusFile('examples/pacific-crest.yaml');

/** A page as the server sends it: its campus element holds `json`, or it has none. */
function pageWith(json: string | null): Pick<Document, 'getElementById'> {
  return {
    getElementById: (id) =>
      json !== null && id === CAMPUS_ELEMENT_ID ? ({ textContent: json } as HTMLElement) : null,
  };
}

/** A fetch that must not be called (the page carries its campus). */
const noFetch: typeof fetch = () => Promise.reject(new Error('fetched'));

afterEach(() => setActiveCampus(DEFAULT_CAMPUS));

describe('the campus the web app shows', () => {
  it('is the one the page carries: names, titles, credit and lists are that campus’s', async () => {
    await loadCampus(pageWith(JSON.stringify(PACIFIC_CREST)), noFetch);
    const campus = activeCampus();
    expect(campus.name).toBe('Pacific Crest University');
    expect(documentTitle('About')).toBe('About | Crest Textbook Exchange');
    expect(documentTitle('Crest Textbook Exchange')).toBe('Crest Textbook Exchange');
    expect(campus.footerCredit).toBe(
      'Built by The PCU Student Computing Club, for students · 2026',
    );
    expect(campus.findMajors('comp eng').map((m) => m.label)).toEqual(['Computer Engineering']);
    expect(campus.subjectName('OCEA')).toBe('Ocean Sciences');
    expect(campus.meetupSpot('quarry-plaza')?.name).toBe('Redwood Plaza bookstore steps');
    // The chip names the subject by this campus's list (the default campus has no OCEA).
    const chips = activeFilterChips({ ...readFilters(new URLSearchParams()), subject: 'OCEA' });
    expect(chips.map((chip) => chip.label)).toContain('Ocean Sciences');
  });

  it('is the default campus file’s in the tests, until a test sets another', () => {
    expect(documentTitle('About')).toBe('About | Campus Books');
    expect(activeCampus().name).toBe('University of Richmond');
  });

  it('is asked of GET /api/campus when the page carries none (the dev server’s page)', async () => {
    const asked: string[] = [];
    const fetchCampus: typeof fetch = async (input) => {
      asked.push(String(input));
      return Response.json(PACIFIC_CREST);
    };
    await loadCampus(pageWith(null), fetchCampus);
    expect(asked).toEqual(['/api/campus']);
    expect(activeCampus().productName).toBe('Crest Textbook Exchange');
  });

  it('is refused, the campus set before kept, when it is not a campus', async () => {
    // The answer of GET /api/campus is held to the campus schema.
    const wrongZone: typeof fetch = async () =>
      Response.json({ ...PACIFIC_CREST, timeZone: 'Mars/Olympus' });
    await expect(loadCampus(pageWith(null), wrongZone)).rejects.toThrow(/timeZone/);
    const failing: typeof fetch = async () => new Response('down', { status: 503 });
    await expect(loadCampus(pageWith(null), failing)).rejects.toThrow(/503/);
    expect(activeCampus().name).toBe('University of Richmond');
  });
});
