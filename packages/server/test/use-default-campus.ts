// Tests that use the schemas or the campus's lists without starting an app (which sets the campus
// it is configured with) run on the default campus.
import { setActiveCampus } from '@campus-books/common/active-campus';
import { DEFAULT_CAMPUS_FILE, readCampusFile } from '../src/config/campus-file';

setActiveCampus(readCampusFile(DEFAULT_CAMPUS_FILE));
