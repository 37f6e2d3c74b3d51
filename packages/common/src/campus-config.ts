import { z } from 'zod';
import { apiSchemas } from './api';
import { campusConsortiumSchema } from './campus-consortium';
import { normalizeHostName } from './host-name';
import { contrastProblem } from './contrast';
import { campusSsoSchema } from './campus-sso';
import { isTimeZone } from './time-zone';

/**
 * The campus configuration: everything that makes an installation one university's (its names,
 * school e-mail domain, time zone, term ends, schools, majors, subjects, meetup spots, operator,
 * GroupMe rule, colours). An operator writes it as a YAML or JSON file (docs/adopt.md); the server
 * reads it once at start and refuses to start, naming every problem, when it is not valid. The JSON
 * Schema editors complete the file with (campus.schema.json) is generated from this schema.
 */

const text = (max: number) => z.string().trim().min(1).max(max);

/** A key that is part of the API (a school's or a meetup spot's): stable once used. */
const KEY_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,39}$/;
const key = (what: string) =>
  z
    .string()
    .regex(KEY_PATTERN, `a ${what} key is a letter then up to 39 letters, digits, "-" or "_"`);

const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date is written YYYY-MM-DD')
  .refine((date) => !Number.isNaN(Date.parse(`${date}T00:00:00Z`)), 'is not a date');

/** Keys of a list must differ: the first repeated one is named. */
function uniqueBy<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  ctx: z.RefinementCtx,
  what: string,
) {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const k = keyOf(item);
    if (seen.has(k))
      ctx.addIssue({ code: 'custom', path: [index], message: `${what} "${k}" is listed twice` });
    seen.add(k);
  });
}

export const campusSchoolSchema = z.object({
  key: key('school').describe(
    'Stable key of the school, used by the API and stored with listings: never change it once used.',
  ),
  label: text(80).describe('The school as students see it on a listing.'),
  filterLabel: text(40)
    .optional()
    .describe('A shorter label for the search filters; the label when omitted.'),
});

export const campusMajorSchema = z.union([
  text(120),
  z.object({
    label: text(120),
    aliases: z
      .array(text(60))
      .default([])
      .describe("What students type for it ('cs', 'econ'), found as well as the label's words."),
  }),
]);

export const campusSubjectSchema = z.object({
  code: z.string().regex(/^[A-Z]{2,5}$/, 'a subject code is 2 to 5 capital letters (ECON)'),
  name: text(120),
});

export const meetupSpotSchema = z.object({
  id: key('meetup spot').describe('Stable key of the spot (a meetup names its spot by it).'),
  name: text(120),
  place: text(200).describe('Where it is, as a student would find it.'),
  hours: text(200).describe('When it is open, as a sentence.'),
  note: text(200).optional(),
});

const hexColour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'a colour is written #rrggbb')
  .toLowerCase();

export const campusConfigSchema = z
  .object({
    name: text(120).describe('The university, as students name it.'),
    productName: text(60).default('Campus Books').describe("The product's name on every page."),
    emailDomain: z
      .string()
      .trim()
      .toLowerCase()
      .refine(
        (domain) => normalizeHostName(domain) === domain && domain.includes('.'),
        'is not a domain name (such as university.edu)',
      )
      .nullable()
      .default(null)
      .describe(
        'The school e-mail domain students sign up with (its subdomains too); null lets any address sign up.',
      ),
    timeZone: z
      .string()
      .refine(isTimeZone, 'is not a time zone name (an IANA name such as America/Los_Angeles)')
      .describe("The campus's time zone: digests, term ends and meetups are read in it."),
    termEndDates: z
      .array(calendarDate)
      .default([])
      .describe('The last day of each term (YYYY-MM-DD, in the campus time zone).'),
    operator: z
      .object({
        name: z
          .string()
          .trim()
          .max(120)
          .default('')
          .describe('Who runs this installation (a student group).'),
        creditYear: z.number().int().min(2000).max(2200).optional(),
      })
      .default({ name: '' })
      .describe('The footer credits the operator, when named.'),
    privacyContact: z
      .string()
      .trim()
      .max(200)
      .default('')
      .describe("Who answers questions about a student's data; empty: the campus moderators."),
    groupme: z
      .object({
        required: z
          .boolean()
          .default(false)
          .describe('Whether sign-up asks every student for a GroupMe link.'),
        linkPrefix: z.url({ protocol: /^https$/ }).default('https://groupme.com/'),
      })
      .default({ required: false, linkPrefix: 'https://groupme.com/' }),
    theme: z
      .object({
        primaryColor: hexColour
          .default('#2458c6')
          .describe('Buttons and links; white text on it must reach 4.5:1 contrast (WCAG AA).'),
        logo: text(300)
          .optional()
          .describe(
            "The campus's logo, an SVG or PNG file (its path relative to the campus file): the header, the favicon and the installed app's icons show it; without one they show the product's book in the primary colour. As the server sends the campus, the logo's address.",
          ),
      })
      .default({ primaryColor: '#2458c6' }),
    schools: z
      .array(campusSchoolSchema)
      .min(1)
      .max(20)
      .superRefine((list, ctx) => uniqueBy(list, (s) => s.key.toLowerCase(), ctx, 'school'))
      .describe('The schools a listing can be for, in the order the forms show them.'),
    majors: z
      .array(campusMajorSchema)
      .max(500)
      .default([])
      .describe('The majors students choose from.'),
    subjects: z
      .array(campusSubjectSchema)
      .max(1000)
      .default([])
      .superRefine((list, ctx) => uniqueBy(list, (s) => s.code, ctx, 'subject'))
      .describe('Subject codes as students say them before a course number.'),
    meetupSpots: z
      .array(meetupSpotSchema)
      .max(50)
      .default([])
      .superRefine((list, ctx) => uniqueBy(list, (s) => s.id, ctx, 'meetup spot'))
      .describe("The campus safety office's list of safe exchange spots."),
    publicUrl: z
      .url({ protocol: /^https?$/ })
      .refine((url) => new URL(url).pathname === '/' && !/[?#]/.test(url), 'is an origin only')
      .optional()
      .describe(
        "In a many-campus installation, the campus's address in mails and pages (https://books.example.edu); unset, its first host with PUBLIC_URL's scheme. A single campus links to PUBLIC_URL.",
      ),
    mail: z
      .object({
        from: z
          .object({
            name: text(120)
              .regex(/^[^\p{Cc}]*$/u, 'holds no control characters')
              .optional()
              .describe("The sender's name; the campus's name when omitted."),
            address: z
              .email()
              .optional()
              .describe("The sender's address; MAIL_FROM's when omitted."),
          })
          .strict()
          .default({}),
      })
      .strict()
      .optional()
      .describe(
        "The mails' sender. Unset: MAIL_FROM (in a many-campus installation, MAIL_FROM's address with the campus's name).",
      ),
    moderators: z
      .array(z.string().trim().toLowerCase().pipe(z.email()))
      .max(100)
      .optional()
      .describe(
        "The campus's moderators' school e-mail addresses (verified accounts only). Unset: MODERATOR_EMAILS. Never sent to the web app.",
      ),
    sso: campusSsoSchema
      .optional()
      .describe(
        "The campus's own sign-on provider (docs/sso.md). Unset: none (a single campus: the SSO_* settings); on a single campus SSO_PROTOCOL, when set, wins. Never sent to the web app.",
      ),
    consortium: campusConsortiumSchema
      .optional()
      .describe(
        'In a many-campus installation, the campuses this one shares listings and students with (campus-consortium.ts). Unset: none.',
      ),
  })
  .strict()
  .superRefine((campus, ctx) => {
    const problem = contrastProblem(campus.theme.primaryColor);
    if (problem)
      ctx.addIssue({ code: 'custom', path: ['theme', 'primaryColor'], message: problem });
  })
  .register(apiSchemas, { id: 'Campus' });

/** What a campus file may say (optional fields may be left out). */
export type CampusConfigInput = z.input<typeof campusConfigSchema>;
/** A campus as the server and the web app use it, every default filled in. */
export type CampusConfig = z.output<typeof campusConfigSchema>;

/**
 * The campus as it is shown (`GET /api/campus`, a page's state): without its moderators' addresses
 * or its sign-on provider's settings.
 */
export function shownCampus(campus: CampusConfig): CampusConfig {
  if (campus.moderators === undefined && campus.sso === undefined) return campus;
  const { moderators: _moderators, sso: _sso, ...shown } = campus;
  return shown;
}

/** The problems of a campus file, one line each with where it is ("schools.2.key: …"). */
export function campusProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const where = issue.path.map(String).join('.');
    // An operator editing the file needs the key itself, whatever wording the schema's messages use.
    const message =
      issue.code === 'unrecognized_keys'
        ? `not a field of the campus file: ${issue.keys.map((key) => `"${key}"`).join(', ')}`
        : issue.message;
    return where === '' ? message : `${where}: ${message}`;
  });
}
