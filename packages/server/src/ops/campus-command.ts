import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { stringify } from 'yaml';
import { z } from 'zod';
import {
  campusConfigSchema,
  campusProblems,
  type CampusConfig,
  type CampusConfigInput,
} from '@campus-books/common/campus-config';
import { contrastRatio } from '@campus-books/common/contrast';
import { campusFileOf, DEFAULT_CAMPUS_FILE, readCampusFile } from '../config/campus-file';
import { readCampusLogo } from '../config/campus-logo';
import { checkCampusSso } from '../config/campus-sso';
import { DIRECTORY_USAGE, runCampusDirectoryCommand } from './campus-directory-command';
import { runCampusImport } from './campus-import';

/** The JSON Schema of a campus file, as editors read it (campus/campus.schema.json). */
export function campusJsonSchema(): string {
  const schema = z.toJSONSchema(campusConfigSchema, { io: 'input', unrepresentable: 'any' });
  return `${JSON.stringify({ title: 'Campus Books campus configuration', ...schema }, null, 2)}\n`;
}

const list = (items: readonly string[]) => (items.length === 0 ? '(none)' : items.join(', '));

/** What students will see of a campus, in a few lines (`npm run campus -- check`). */
export function describeCampus(campus: CampusConfig, file: string, now = new Date()): string {
  const localTime = new Intl.DateTimeFormat('en-US', {
    timeZone: campus.timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(now);
  const contrast = contrastRatio(campus.theme.primaryColor, '#ffffff').toFixed(2);
  return [
    `${file} is a valid campus.`,
    `  ${campus.productName} at ${campus.name}`,
    `  Sign-up: ${campus.emailDomain ? `addresses at ${campus.emailDomain}` : 'any e-mail address'}` +
      `${campus.groupme.required ? ', with a GroupMe link' : ''}`,
    `  Time zone: ${campus.timeZone} (now ${localTime} there)`,
    `  Term ends: ${list(campus.termEndDates)}`,
    `  Schools: ${list(campus.schools.map((s) => `${s.label} [${s.key}]`))}`,
    `  Majors: ${campus.majors.length}, subjects: ${campus.subjects.length}, meetup spots: ${campus.meetupSpots.length}`,
    `  Meetup spots: ${list(campus.meetupSpots.map((s) => s.name))}`,
    `  Colour: ${campus.theme.primaryColor} (white text on it: ${contrast}:1)`,
    `  Footer: ${campus.operator.name ? `Built by ${campus.operator.name}` : 'no operator credit'}`,
  ].join('\n');
}

/** A school's key from its label: its letters and digits ("Arts & Sciences" → ArtsSciences). */
export function schoolKeyOf(label: string): string {
  const words = label
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9 ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const key = words
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('')
    .slice(0, 40);
  return /^[A-Za-z]/.test(key) ? key : `S${key}`.slice(0, 40);
}

export interface Prompter {
  ask(question: string, fallback?: string): Promise<string>;
  /** Why an answer was not taken. */
  say(text: string): void;
  close(): void;
}

/** Questions on a terminal (or any stream: the tests answer them through one). */
export function terminalPrompter(
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stderr,
): Prompter {
  const lines = createInterface({ input, output, terminal: false });
  const queued: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let ended = false;
  lines.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else queued.push(line);
  });
  lines.on('close', () => {
    ended = true;
    for (const next of waiting.splice(0)) next(null);
  });
  const nextLine = () =>
    queued.length > 0
      ? Promise.resolve(queued.shift()!)
      : ended
        ? Promise.resolve(null)
        : new Promise<string | null>((resolve) => waiting.push(resolve));
  return {
    async ask(question, fallback) {
      output.write(`${question}${fallback ? ` [${fallback}]` : ''}: `);
      const answer = (await nextLine())?.trim() ?? '';
      if (answer === '' && fallback === undefined && ended) {
        throw new Error(`no answer to "${question}"`);
      }
      return answer === '' ? (fallback ?? '') : answer;
    },
    say: (text) => output.write(`${text}\n`),
    close: () => lines.close(),
  };
}

/** Asks what a campus file needs, until each answer is valid, and gives the file's content. */
export async function askForCampus(prompter: Prompter): Promise<CampusConfigInput> {
  async function askValid<T>(
    question: string,
    fallback: string | undefined,
    check: (answer: string) => T | string,
  ) {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await prompter.ask(question, fallback);
      const result = check(answer);
      if (typeof result !== 'string' || result === answer) return result as T;
      prompter.say(`  ${result}`);
    }
    throw new Error(`no valid answer to "${question}"`);
  }
  const field =
    <K extends keyof typeof campusConfigSchema.shape>(key: K) =>
    (answer: string) => {
      const parsed = campusConfigSchema.shape[key].safeParse(answer);
      return parsed.success ? answer : campusProblems(parsed.error).join('; ');
    };
  const name = await askValid<string>('University name', undefined, field('name'));
  const domain = await askValid<string>(
    'School e-mail domain (empty: any address)',
    '',
    (answer) => (answer === '' ? answer : field('emailDomain')(answer)),
  );
  const zone = await askValid<string>(
    'Time zone',
    Intl.DateTimeFormat().resolvedOptions().timeZone,
    field('timeZone'),
  );
  const schools = await askValid<string>('Schools, separated by commas', undefined, (answer) => {
    const labels = answer
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return labels.length > 0 ? answer : 'name at least one school';
  });
  const colour = await askValid<string>('Primary colour (#rrggbb)', '#2458c6', (answer) => {
    const parsed = campusConfigSchema.shape.theme.safeParse({ primaryColor: answer });
    if (!parsed.success) return campusProblems(parsed.error).join('; ');
    const whole = campusConfigSchema.safeParse({
      name: 'x',
      timeZone: 'UTC',
      schools: [{ key: 'x', label: 'x' }],
      theme: { primaryColor: answer },
    });
    return whole.success ? answer : campusProblems(whole.error).join('; ');
  });
  const operator = await prompter.ask('Who runs it (a student group; empty: no credit)', '');
  return {
    name,
    emailDomain: domain === '' ? null : domain,
    timeZone: zone,
    termEndDates: [],
    operator: { name: operator, creditYear: new Date().getFullYear() },
    theme: { primaryColor: colour },
    schools: schools
      .split(',')
      .map((label) => label.trim())
      .filter(Boolean)
      .map((label) => ({ key: schoolKeyOf(label), label })),
    majors: [],
    subjects: [],
    meetupSpots: [],
  };
}

/** The JSON Schema shipped beside the default campus, which a campus file names for its editor. */
export const CAMPUS_SCHEMA_FILE = path.join(
  path.dirname(DEFAULT_CAMPUS_FILE),
  'campus.schema.json',
);

/** The text of a campus file written at `file`, validated first (an invalid one is never written). */
export function campusFileText(input: CampusConfigInput, file: string): string {
  const parsed = campusConfigSchema.safeParse(input);
  if (!parsed.success) throw new Error(campusProblems(parsed.error).join('\n'));
  const schema = path.relative(path.dirname(file), CAMPUS_SCHEMA_FILE).split(path.sep).join('/');
  return (
    '# The campus configuration (docs/adopt.md). Check it with `npm run campus -- check <file>`.\n' +
    `# yaml-language-server: $schema=${schema}\n` +
    stringify(input, { lineWidth: 100 })
  );
}

export const CAMPUS_USAGE = `Usage (from the repository root):
  npm run campus -- init [--out <file>]   asks the questions and writes a campus file (default data/campus.yaml)
  npm run campus -- check [<file>]        validates a campus file (default: the one the server would read)
  npm run campus -- schema [--write]      prints the campus file's JSON Schema (--write: updates the shipped one)
  npm run campus -- import subjects <file.csv> [--dry-run] [--campus <campus.yaml>]
                                          replaces the subjects with a registrar's file (header code,name)
  npm run campus -- import majors <file.csv> [--dry-run] [--campus <campus.yaml>]
                                          replaces the majors (header label[,aliases], aliases split by ;)
${DIRECTORY_USAGE}
See docs/adopt.md.`;

/**
 * `npm run campus -- …`: the exit code (0 done, 64 usage, 65 an invalid file, 73 would overwrite;
 * import's in campus-import.ts).
 */
export async function runCampusCommand(
  args: string[],
  env: NodeJS.ProcessEnv,
  io: { out: (text: string) => void; err: (text: string) => void; prompter?: () => Prompter },
): Promise<number> {
  const [command, ...rest] = args;
  if (command === 'import') return runCampusImport(rest, env, io);
  const directory = await runCampusDirectoryCommand(command, rest, env, io);
  if (directory !== null) return directory;
  if (command === 'schema' && rest.length === 0) {
    io.out(campusJsonSchema());
    return 0;
  }
  if (command === 'schema' && rest.length === 1 && rest[0] === '--write') {
    writeFileSync(CAMPUS_SCHEMA_FILE, campusJsonSchema());
    io.out(`wrote ${CAMPUS_SCHEMA_FILE}\n`);
    return 0;
  }
  if (command === 'check' && rest.length <= 1) {
    const file = rest[0] ? path.resolve(rest[0]) : campusFileOf(env);
    try {
      const campus = readCampusFile(file);
      // The logo as the server checks it at start: there, readable, an image of sensible size.
      readCampusLogo(campus, file);
      checkCampusSso(campus, file, env);
      io.out(`${describeCampus(campus, file)}\n`);
      return 0;
    } catch (error) {
      io.err(`${(error as Error).message}\n`);
      return 65;
    }
  }
  if (command === 'init') {
    const outAt = rest.indexOf('--out');
    const out = path.resolve(
      outAt >= 0 && rest[outAt + 1]
        ? rest[outAt + 1]!
        : path.join(env.DATA_DIR || './data', 'campus.yaml'),
    );
    if (existsSync(out)) {
      io.err(`${out} exists already: move it away or name another file with --out.\n`);
      return 73;
    }
    const prompter = (io.prompter ?? (() => terminalPrompter()))();
    try {
      const text = campusFileText(await askForCampus(prompter), out);
      writeFileSync(out, text, { flag: 'wx' });
    } finally {
      prompter.close();
    }
    io.out(`${describeCampus(readCampusFile(out), out)}\n`);
    io.out(
      'Next: add majors, subjects and meetup spots to it (docs/adopt.md), then restart the server.\n',
    );
    return 0;
  }
  io.err(`${CAMPUS_USAGE}\n`);
  return 64;
}
