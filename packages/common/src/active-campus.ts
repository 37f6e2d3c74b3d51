import type { CampusConfig } from './campus-config';

/**
 * The campus a process serves, and the lists every feature reads from it (majors, subjects, schools,
 * meetup spots). The server sets it once it has read the campus file (config/campus-file.ts); the
 * web app once it has read the campus the server embedded in the page (lib/campus.tsx); tests from
 * their test campus. The schemas' campus rules (a subject of this campus, a major of it) read it when
 * they validate, never when they are built, so one set of schemas serves whatever campus is set.
 */

export interface Major {
  /** As the form shows it. */
  label: string;
  /** As a listing stores it: punctuation and dashes dropped, spaces folded. */
  value: string;
}

export interface Campus {
  config: CampusConfig;
  name: string;
  productName: string;
  timeZone: string;
  schools: CampusConfig['schools'];
  schoolKeys: readonly string[];
  /** A school's key as the campus spells it, whatever the case it was written in; undefined if none. */
  schoolKey(key: string): string | undefined;
  /** The chosen schools' labels in the campus's order, joined by ', '. */
  schoolLabels(keys: readonly string[]): string;
  majors: readonly Major[];
  majorValues: ReadonlySet<string>;
  majorLabel(value: string | null | undefined): string | undefined;
  /** The majors a student means by `term`, best first (see findMajors). */
  findMajors(term: string): Major[];
  subjects: CampusConfig['subjects'];
  subjectCodes: ReadonlySet<string>;
  subjectName(code: string | null | undefined): string | undefined;
  meetupSpots: CampusConfig['meetupSpots'];
  meetupSpot(id: string | null | undefined): CampusConfig['meetupSpots'][number] | undefined;
  /** The footer's credit line, or null when the campus names no operator. */
  footerCredit: string | null;
}

/** Turns a display label into its stored value: punctuation and dashes dropped, spaces folded. */
export function majorValueOf(label: string): string {
  return label
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s']/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);

/**
 * The majors a student means by `term`, best first: an alias typed in full ('cs', 'econ'), then
 * labels whose every typed word begins a word of the label or of an alias ('comp sci' finds
 * Computer Science), in the list's order. An empty term gives every major.
 */
function findMajorsIn(
  majors: readonly Major[],
  aliases: ReadonlyMap<string, readonly string[]>,
  term: string,
): Major[] {
  const typed = words(term);
  if (typed.length === 0) return [...majors];
  const joined = typed.join(' ');
  const exact: Major[] = [];
  const partial: Major[] = [];
  for (const major of majors) {
    const known = aliases.get(major.label) ?? [];
    if (known.some((alias) => words(alias).join(' ') === joined)) {
      exact.push(major);
      continue;
    }
    const all = [...words(major.label), ...known.flatMap(words)];
    if (typed.every((word) => all.some((k) => k.startsWith(word)))) partial.push(major);
  }
  return [...exact, ...partial];
}

const views = new WeakMap<CampusConfig, Campus>();

/** The lists of a campus, worked out once per configuration. */
export function campusOf(config: CampusConfig): Campus {
  const kept = views.get(config);
  if (kept) return kept;
  const majors = config.majors.map((major) => {
    const label = typeof major === 'string' ? major : major.label;
    return { label, value: majorValueOf(label) };
  });
  const aliases = new Map(
    config.majors.flatMap((major) =>
      typeof major === 'string' ? [] : [[major.label, major.aliases] as const],
    ),
  );
  const schoolsByKey = new Map(config.schools.map((s) => [s.key.toLowerCase(), s]));
  const operator = config.operator.name.trim();
  const view: Campus = {
    config,
    name: config.name,
    productName: config.productName,
    timeZone: config.timeZone,
    schools: config.schools,
    schoolKeys: config.schools.map((s) => s.key),
    schoolKey: (key) => schoolsByKey.get(key.toLowerCase())?.key,
    schoolLabels: (keys) => {
      const chosen = new Set(keys.map((k) => k.toLowerCase()));
      return config.schools
        .filter((s) => chosen.has(s.key.toLowerCase()))
        .map((s) => s.label)
        .join(', ');
    },
    majors,
    majorValues: new Set(majors.map((m) => m.value)),
    majorLabel: (value) => majors.find((m) => m.value === value)?.label,
    findMajors: (term) => findMajorsIn(majors, aliases, term),
    subjects: config.subjects,
    subjectCodes: new Set(config.subjects.map((s) => s.code)),
    subjectName: (code) => config.subjects.find((s) => s.code === code)?.name,
    meetupSpots: config.meetupSpots,
    meetupSpot: (id) => config.meetupSpots.find((s) => s.id === id),
    footerCredit:
      operator === ''
        ? null
        : `Built by ${operator}, for students${config.operator.creditYear ? ` · ${config.operator.creditYear}` : ''}`,
  };
  views.set(config, view);
  return view;
}

let resolveCampus: (() => CampusConfig | undefined) | null = null;

/**
 * Sets the campus this process serves: a configuration, or a function giving the one of the work
 * at hand (an installation serving several campuses answers each request as its own).
 */
export function setActiveCampus(campus: CampusConfig | (() => CampusConfig | undefined)): void {
  resolveCampus = typeof campus === 'function' ? campus : () => campus;
}

/** The campus being served. */
export function activeCampus(): Campus {
  const config = resolveCampus?.();
  if (!config) {
    throw new Error('no campus is set: the server sets it at start (config/campus-file.ts)');
  }
  return campusOf(config);
}
