import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { settingsSections, type SettingsSection } from '../config/settings';

/** docs/configuration.md, which `npm run docs:configuration` writes from the settings' schemas. */
export const CONFIGURATION_DOCS_PATH = fileURLToPath(
  new URL('../../../../docs/configuration.md', import.meta.url),
);

export const REGENERATE_COMMAND = 'npm run docs:configuration';

/** One row of a section's table. */
export interface SettingRow {
  name: string;
  default: string;
  accepts: string;
  description: string;
}

/** The schema and what it wraps (default, optional, a pipe's parsing side), outermost first. */
function layersOf(schema: z.ZodType): z.ZodType[] {
  const layers: z.ZodType[] = [];
  let layer: z.ZodType | undefined = schema;
  while (layer) {
    layers.push(layer);
    if (layer instanceof z.ZodDefault || layer instanceof z.ZodOptional) {
      layer = layer.unwrap() as z.ZodType;
    } else if (layer instanceof z.ZodPipe) {
      // optionalText parses a string, then transforms it; a preprocess transforms, then parses.
      layer = (layer.out instanceof z.ZodTransform ? layer.in : layer.out) as z.ZodType;
    } else {
      layer = undefined;
    }
  }
  return layers;
}

const UNITS: [suffix: string, unit: string][] = [
  ['_MS', 'ms'],
  ['_SECONDS', 's'],
  ['_MINUTES', 'min'],
  ['_HOURS', 'h'],
  ['_DAYS', 'days'],
  ['_MB', 'MB'],
];

/** RATE_LIMIT_MESSAGES_PER_MINUTE counts messages: only a name that ends in a unit has one. */
const unitOf = (name: string) => UNITS.find(([suffix]) => name.endsWith(suffix))?.[1];

/** 300000 → "5 min": a default in milliseconds, as a person reads it. */
function readableMs(ms: number): string | undefined {
  const steps: [number, string][] = [
    [86_400_000, 'days'],
    [3_600_000, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  const step = steps.find(([size]) => ms >= size && ms % size === 0);
  if (!step) return undefined;
  const count = ms / step[0];
  return `${count} ${step[1] === 'days' && count === 1 ? 'day' : step[1]}`;
}

const code = (value: string) => `\`${value}\``;

const listOf = (values: string[]) =>
  values.length <= 1
    ? values.join('')
    : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;

function acceptsOf(name: string, layers: z.ZodType[]): string {
  const accepts = layers.map((l) => z.globalRegistry.get(l)?.accepts).find(Boolean);
  if (accepts) return accepts;
  const inner = layers[layers.length - 1];
  if (inner instanceof z.ZodEnum) return listOf(inner.options.map((o) => code(String(o))));
  if (inner instanceof z.ZodNumber) {
    const unit = unitOf(name);
    return `${inner.minValue}–${inner.maxValue}${unit ? ` ${unit}` : ''}`;
  }
  if (inner instanceof z.ZodString && inner.minLength) {
    return `text, at least ${inner.minLength} characters`;
  }
  return 'text';
}

function defaultOf(name: string, layers: z.ZodType[]): string {
  const unset = layers.map((l) => z.globalRegistry.get(l)?.unset).find(Boolean);
  if (unset) return unset;
  const withDefault = layers.find((l) => l instanceof z.ZodDefault);
  const value: unknown = withDefault?.def.defaultValue;
  if (value === undefined || value === '') return 'unset';
  const readable = name.endsWith('_MS') && typeof value === 'number' ? readableMs(value) : null;
  return `${code(String(value))}${readable ? ` (${readable})` : ''}`;
}

/** A setting's row: its default, what it accepts, and its description, all from its schema. */
export function settingRow(name: string, schema: z.ZodType): SettingRow {
  const layers = layersOf(schema);
  const description = layers.map((l) => z.globalRegistry.get(l)?.description).find(Boolean);
  return {
    name,
    default: defaultOf(name, layers),
    accepts: acceptsOf(name, layers),
    description: description ?? '',
  };
}

export function sectionRows(section: SettingsSection): SettingRow[] {
  return Object.entries(section.schema.shape).map(([name, schema]) =>
    settingRow(name, schema as z.ZodType),
  );
}

/** A Markdown table padded as Prettier pads one, so the generated file passes its check. */
function table(header: string[], rows: string[][]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const all = [header, ...rows].map((row) => row.map(cell));
  const widths = header.map((_, i) => Math.max(3, ...all.map((row) => row[i]!.length)));
  const line = (row: string[]) => `| ${row.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const rule = `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`;
  const [head, ...body] = all;
  return [line(head!), rule, ...body.map(line)].join('\n');
}

const anchorOf = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

/** The whole of docs/configuration.md. */
export function renderConfigurationDocs(sections: SettingsSection[] = settingsSections): string {
  const parts = [
    `<!-- Generated from the settings' schemas (packages/server/src/config/) by \`${REGENERATE_COMMAND}\`: edit the schemas' descriptions, then run it. -->`,
    '# Configuration',
    'Every setting is an environment variable, and every one is optional: with none set, the product runs on the embedded defaults (README, "Configuration", names the few a first deployment sets). A bad value stops the start with a message that names every problem.',
    sections.map((s) => `- [${s.title}](#${anchorOf(s.title)})`).join('\n'),
  ];
  for (const section of sections) {
    const rows = sectionRows(section).map((r) => [
      code(r.name),
      r.default,
      r.accepts,
      r.description,
    ]);
    parts.push(
      `## ${section.title}`,
      section.intro,
      table(['setting', 'default', 'accepts', 'what it does'], rows),
    );
  }
  return `${parts.join('\n\n')}\n`;
}
