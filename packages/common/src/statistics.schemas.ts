import { z } from 'zod';
import { apiSchemas } from './api';

/** GET /api/statistics?weeks=N: how many weeks back (the current one included). */
export const statisticsQuerySchema = z.object({
  weeks: z.coerce
    .number({ error: 'must be a whole number of weeks' })
    .int('must be a whole number of weeks')
    .min(1, 'must be at least 1')
    .max(52, 'must be at most 52')
    .default(12),
});
export type StatisticsQuery = z.infer<typeof statisticsQuerySchema>;

/** A week's counts, all campus-wide aggregates: never a student's data. */
export const statisticsWeekSchema = z
  .object({
    /** The Monday (UTC) the week starts on, YYYY-MM-DD. */
    weekStart: z.string(),
    listingsCreated: z.number().int(),
    listingsSold: z.number().int(),
    /** Listings that expired in the week and were not relisted since. */
    listingsExpired: z.number().int(),
    /** Students who created a listing or confirmed one still available. */
    activeSellers: z.number().int(),
    /** Students who saved a listing or created an alert (the product sees no sale's buyer). */
    activeBuyers: z.number().int(),
    alertsCreated: z.number().int(),
    /** Alert mails' listings delivered (one row per student, listing and event). */
    alertNotificationsSent: z.number().int(),
    searchesWithoutResults: z.number().int(),
    /** Messages students wrote each other in conversations. */
    messages: z.number().int(),
  })
  .register(apiSchemas, { id: 'StatisticsWeek' });
export type StatisticsWeek = z.infer<typeof statisticsWeekSchema>;

/** A term students searched for that found nothing, with how often, over the whole period. */
export const missedSearchSchema = z
  .object({ term: z.string(), count: z.number().int() })
  .register(apiSchemas, { id: 'MissedSearch' });

export const operatorStatisticsSchema = z
  .object({
    /** Oldest first; every week of the period, with zeros where nothing happened. */
    weeks: z.array(statisticsWeekSchema),
    /**
     * The most searched terms that found nothing (at most 20), each searched at least
     * MISSED_SEARCH_MIN_COUNT times, so one student's typing never shows.
     */
    topMissedSearches: z.array(missedSearchSchema),
  })
  .register(apiSchemas, { id: 'OperatorStatistics' });
export type OperatorStatistics = z.infer<typeof operatorStatisticsSchema>;

/** A term shows among the missed searches only once searched this many times in the period. */
export const MISSED_SEARCH_MIN_COUNT = 2;
export const MISSED_SEARCH_TOP = 20;
