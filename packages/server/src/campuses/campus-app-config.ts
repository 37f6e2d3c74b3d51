import { shownCampus, type CampusConfig } from '@campus-books/common/campus-config';
import type { Config } from '../config/config';
import { campusSignOn } from '../config/campus-sso';
import { campusSender } from '../config/mail-sender';
import { endOfZonedDay, parseCalendarDate } from '../jobs/zoned-time';
import { currentCampusWork, type CampusWork } from './campus-context';

const perCampus = new WeakMap<CampusConfig, Config>();

/** A campus of the directory with the host names it is served at (campus-installation.ts). */
export interface CampusSite extends CampusWork {
  /** Its hosts, the first its address (links in mails and pages). */
  hosts?: readonly string[];
}

/**
 * A campus's public address: its file's `publicUrl`, else its first host with PUBLIC_URL's scheme
 * (a campus's mails and pages link to its own host, never to the process's PUBLIC_URL, which
 * another campus's host, or none, answers).
 */
export function publicUrlOfCampus(base: Pick<Config, 'publicUrl'>, work: CampusSite): string {
  if (work.config.publicUrl) return work.config.publicUrl.replace(/\/+$/, '');
  const host = work.hosts?.[0];
  if (!host) return base.publicUrl;
  return `${new URL(base.publicUrl).protocol}//${host}`;
}

/**
 * The server's configuration as a campus of the directory sees it: the process's settings with the
 * campus's own (its file, school e-mail domain, GroupMe rule, time zone, term ends, public address,
 * mail sender, moderators, sign-on provider). The settings that override the process's campus file
 * (SCHOOL_EMAIL_DOMAIN, CAMPUS_TIME_ZONE…) are that campus's, never another's.
 */
export function configOfCampus(base: Config, work: CampusSite): Config {
  const campus = work.config;
  const kept = perCampus.get(campus);
  if (kept) return kept;
  const publicUrl = publicUrlOfCampus(base, work);
  // Its own provider (its file's `sso`), its addresses at its publicUrl; none without one.
  const { sso, passwordSignUp } = campusSignOn(campus, {
    production: base.env === 'production',
    publicUrl,
  });
  const config: Config = {
    ...base,
    campus: shownCampus(campus),
    campusLogo: null,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    // The campus's sender, else MAIL_FROM's address under the campus's name.
    mailFrom: campusSender(campus, base.mailFrom),
    schoolEmailDomain: campus.emailDomain,
    groupmeLinkPrefix: campus.groupme.linkPrefix,
    sso,
    passwordSignUp,
    trust: {
      ...base.trust,
      termEnds: campus.termEndDates
        .map((date) => ({ date, endsAt: endOfZonedDay(campus.timeZone, parseCalendarDate(date)!) }))
        .sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime()),
      // The campus's own list when its file has one; else MODERATOR_EMAILS. Either way an address
      // is a moderator only as a verified account of this campus (its own schema's users).
      moderatorEmails: campus.moderators ?? base.trust.moderatorEmails,
    },
    alerts: { ...base.alerts, timeZone: campus.timeZone },
  };
  perCampus.set(campus, config);
  return config;
}

/**
 * `app.config` of a many-campus installation: each read answers as the campus of the work at hand
 * (a request's, a job's), the process's configuration outside any.
 */
export function campusAwareConfig(base: Config): Config {
  return new Proxy(base, {
    get(target, property) {
      const work = currentCampusWork();
      const config = work ? configOfCampus(target, work) : target;
      return Reflect.get(config, property, config);
    },
  });
}
