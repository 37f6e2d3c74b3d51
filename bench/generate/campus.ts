import path from 'node:path';
import { campusOf, setActiveCampus, type Campus } from '@campus-books/common/active-campus';
import { DEFAULT_CAMPUS_FILE, readCampusFile } from '../../packages/server/src/config/campus-file';

/** The campus file the server is started with: CAMPUS_CONFIG (`npm run bench -- --campus FILE`), or the default. */
export const BENCH_CAMPUS_FILE = process.env.CAMPUS_CONFIG?.trim()
  ? path.resolve(process.env.CAMPUS_CONFIG.trim())
  : DEFAULT_CAMPUS_FILE;
const config = readCampusFile(BENCH_CAMPUS_FILE);

/**
 * The campus the benchmarked server serves (it inherits CAMPUS_CONFIG; without it, the default
 * campus): that campus file's, read by the server's own reader, so the generated rows name its majors, subjects and schools. It
 * is this process's active campus too, as it is the server's: the database the bench opens and fills
 * writes each listing's answer with the campus's schools (db/listing-json-trigger.ts).
 */
export const defaultCampus: Campus = campusOf(config);
setActiveCampus(config);
