import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCampusDirectoryCommand } from '../src/ops/campus-directory-command';
import { readCampusFile } from '../src/config/campus-file';
import { TEST_CAMPUS_FILE } from './use-default-campus';
import { temporaryFolder } from './temporary-folders';

/** The school e-mail domain of a many-campus test's campus `key` (writeCampusFiles). */
export const campusDomainOf = (key: string): string => `${key}.example.edu`;

/**
 * Campus files for the many-campus tests (decision 024): the test campus under another name and
 * school e-mail domain, written to a temporary folder; `fields` sets more of a campus's file (its
 * time zone…; its `theme` fields over the test campus's theme).
 */
export function writeCampusFiles(
  keys: readonly string[],
  fields: Record<string, Record<string, unknown>> = {},
): {
  files: Record<string, string>;
  domains: Record<string, string>;
  remove(): void;
} {
  const folder = temporaryFolder('cb-campuses-');
  const base = readCampusFile(TEST_CAMPUS_FILE);
  const files: Record<string, string> = {};
  const domains: Record<string, string> = {};
  for (const key of keys) {
    domains[key] = campusDomainOf(key);
    files[key] = path.join(folder, `${key}.yaml`);
    const { logo: _logo, ...theme } = base.theme;
    const { theme: themeFields, ...more } = fields[key] ?? {};
    writeFileSync(
      files[key],
      JSON.stringify({
        ...base,
        theme: { ...theme, ...(themeFields as Record<string, unknown> | undefined) },
        name: `${key} University`,
        emailDomain: domains[key],
        ...more,
      }),
    );
  }
  return { files, domains, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

/** `npm run campus -- <args>` on the home database `url`: exit code and what it printed. */
export function campusCommand(
  url: string | undefined,
  ...args: string[]
): Promise<{ code: number; out: string; err: string }> {
  return campusCommandWithEnv({}, url, ...args);
}

/** The same with more environment variables (a campus file's secret's, `sso`). */
export async function campusCommandWithEnv(
  env: Record<string, string>,
  url: string | undefined,
  ...args: string[]
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCampusDirectoryCommand(
    args[0],
    args.slice(1),
    { ...env, DATABASE_URL: url },
    {
      out: (text) => (out += text),
      err: (text) => (err += text),
    },
  );
  return { code: code ?? -1, out, err };
}
