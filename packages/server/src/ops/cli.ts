import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config/config';
import { runBackup } from './backup-command';
import { runCampusCommand } from './campus-command';
import { ArchiveError, RestoreRefusedError } from './manifest';
import { runMigrateData } from './migrate-data-command';
import { progressOnStderr } from './progress';
import { runImportRequiredBooks, RequiredBooksRefused } from './required-books-command';
import { runRestore } from './restore-command';
import { VerificationError } from './verify';

const USAGE = `Usage (from the repository root, with the server's environment):
  npm run backup -- <file> [--server http://127.0.0.1:<port>]
  npm run backup -- --dir <folder> [--keep <n>] [--server …]   (a dated name; keeps the newest n)
  npm run backup -- <file> | --dir <folder> … --campus <key>   (one campus of the directory)
  npm run restore -- <file> [--campus <key>]   (--campus: replaces that campus only)
  npm run migrate-data -- --to postgres://user:pass@host/db [--to-s3]
  npm run import-required-books -- <file.csv>
  npm run campus -- init | check [<file>] | schema | import subjects|majors <file.csv> [--dry-run]
  npm run campus -- add <key> --host <host> --config <file.yaml> [--server <url>] | list
See docs/operations.md.`;

/** Exit codes: 64 usage, 65 bad archive, 66 refused (target not empty), 70 verification, 1 other. */
function exitCodeOf(error: unknown): number {
  if (error instanceof ArchiveError || error instanceof RequiredBooksRefused) return 65;
  if (error instanceof RestoreRefusedError) return 66;
  if (error instanceof VerificationError) return 70;
  if (error instanceof ConfigError) return 78;
  return 1;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  // The campus file's commands read no other setting (an import that removes entries reads the
  // database's, to check them): a new operator runs them before any.
  if (command === 'campus') {
    return runCampusCommand(rest, process.env, {
      out: (text) => process.stdout.write(text),
      err: (text) => process.stderr.write(text),
    });
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      dir: { type: 'string' },
      keep: { type: 'string' },
      to: { type: 'string' },
      campus: { type: 'string' },
      'to-s3': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !command) {
    console.log(USAGE);
    return values.help ? 0 : 64;
  }
  // Only a backup and a restore take one campus; any other command would ignore it.
  if (values.campus !== undefined && command !== 'backup' && command !== 'restore') {
    console.error(USAGE);
    return 64;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const progress = progressOnStderr();
  const config = loadConfig(process.env);
  let summary: string;
  const keep = values.keep === undefined ? undefined : Number(values.keep);
  const backupTarget =
    positionals.length === 1 && !values.dir && keep === undefined
      ? { file: positionals[0]! }
      : positionals.length === 0 && values.dir && (keep === undefined || keep >= 1)
        ? { dir: values.dir, keep }
        : null;
  if (command === 'backup' && backupTarget && Number.isSafeInteger(keep ?? 1)) {
    summary = await runBackup({
      config,
      ...backupTarget,
      serverUrl: values.server,
      campus: values.campus,
      progress,
      log,
    });
  } else if (command === 'restore' && positionals.length === 1) {
    summary = await runRestore({
      config,
      file: positionals[0]!,
      campus: values.campus,
      progress,
      log,
    });
  } else if (command === 'migrate-data' && values.to && positionals.length === 0) {
    summary = await runMigrateData({ config, to: values.to, toS3: values['to-s3'], progress, log });
  } else if (command === 'import-required-books' && positionals.length === 1) {
    summary = await runImportRequiredBooks({ config, file: positionals[0]! });
  } else {
    console.error(USAGE);
    return 64;
  }
  console.log(summary);
  return 0;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  console.error(
    `${(error as Error).name === 'Error' ? 'Error' : (error as Error).name}: ${(error as Error).message}`,
  );
  process.exitCode = exitCodeOf(error);
}
