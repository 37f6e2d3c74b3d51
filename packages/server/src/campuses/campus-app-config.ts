import type { CampusConfig } from '@campus-books/common/campus-config';
import type { Config } from '../config/config';
import { endOfZonedDay, parseCalendarDate } from '../jobs/zoned-time';
import { currentCampusWork } from './campus-context';

const perCampus = new WeakMap<CampusConfig, Config>();

/**
 * The server's configuration as a campus of the directory sees it: the process's settings with the
 * campus's own (its file, school e-mail domain, GroupMe rule, time zone, term ends). The settings
 * that override the process's campus file (SCHOOL_EMAIL_DOMAIN, CAMPUS_TIME_ZONE…) are that
 * campus's, never another's.
 */
export function configOfCampus(base: Config, campus: CampusConfig): Config {
  const kept = perCampus.get(campus);
  if (kept) return kept;
  const config: Config = {
    ...base,
    campus,
    campusLogo: null,
    schoolEmailDomain: campus.emailDomain,
    groupmeLinkPrefix: campus.groupme.linkPrefix,
    trust: {
      ...base.trust,
      termEnds: campus.termEndDates
        .map((date) => ({ date, endsAt: endOfZonedDay(campus.timeZone, parseCalendarDate(date)!) }))
        .sort((a, b) => a.endsAt.getTime() - b.endsAt.getTime()),
    },
    alerts: { ...base.alerts, timeZone: campus.timeZone },
  };
  perCampus.set(campus, config);
  return config;
}

/**
 * `app.config` of a many-campus installation: each read answers as the campus of the work at hand
 * (a request's), the process's configuration outside any.
 */
export function campusAwareConfig(base: Config): Config {
  return new Proxy(base, {
    get(target, property) {
      const work = currentCampusWork();
      const config = work ? configOfCampus(target, work.config) : target;
      return Reflect.get(config, property, config);
    },
  });
}
