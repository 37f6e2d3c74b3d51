import { z } from 'zod';

// The app runs under a Content-Security-Policy without 'unsafe-eval' (server plugins/security-headers):
// zod must not compile its parsers with `new Function`; even its caught probe is reported as a
// violation. Imported first by main.tsx, before any schema is built.
z.config({ jitless: true });
