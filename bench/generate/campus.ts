import { campusOf, setActiveCampus, type Campus } from '@campus-books/common/active-campus';
import { DEFAULT_CAMPUS_FILE, readCampusFile } from '../../packages/server/src/config/campus-file';

const config = readCampusFile(DEFAULT_CAMPUS_FILE);

/**
 * The campus the benchmarked server serves (it is given no campus file): the default campus file's,
 * read by the server's own reader, so the generated rows name its majors, subjects and schools. It
 * is this process's active campus too, as it is the server's: the database the bench opens and fills
 * writes each listing's answer with the campus's schools (db/listing-json-trigger.ts).
 */
export const defaultCampus: Campus = campusOf(config);
setActiveCampus(config);
