// The app runs under a Content-Security-Policy without 'unsafe-eval' (server plugins/security-headers):
// zod must not compile its parsers with `new Function`; even its caught probe is reported as a
// violation. Imported first by main.tsx, before any schema parses.
//
// This is what `z.config({ jitless: true })` does, written to the object zod keeps its settings in
// (`globalThis.__zod_globalConfig`, shared by every copy of zod on the page), so that the first load of
// every page does not carry zod's core (~3.5 KB gz) only to set one flag; zod-config.test.ts checks that
// zod reads it.
interface ZodGlobal {
  __zod_globalConfig?: { jitless?: boolean };
}
// The same object whether zod has loaded already or not (zod adopts one it finds).
const settings = ((globalThis as ZodGlobal).__zod_globalConfig ??= {});
settings.jitless = true;

export {};
