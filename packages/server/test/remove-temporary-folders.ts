// A set-up file of every server suite: the folders a test file made with temporaryFolder() are
// removed once the file's tests have run.
import { afterAll } from 'vitest';
import { removeTemporaryFolders } from './temporary-folders';

afterAll(removeTemporaryFolders);
