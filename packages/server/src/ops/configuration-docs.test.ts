import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { settingsSections } from '../config/settings';
import {
  CONFIGURATION_DOCS_PATH,
  REGENERATE_COMMAND,
  renderConfigurationDocs,
  sectionRows,
  settingRow,
} from './configuration-docs';

describe('docs/configuration.md', () => {
  it('is what the settings’ schemas render', () => {
    const committed = readFileSync(CONFIGURATION_DOCS_PATH, 'utf8');
    expect(
      committed === renderConfigurationDocs(),
      `docs/configuration.md differs from the settings' schemas (packages/server/src/config/): run \`${REGENERATE_COMMAND}\` and commit the result`,
    ).toBe(true);
  });

  it('describes every setting, once', () => {
    const rows = settingsSections.flatMap(sectionRows);
    expect(rows.filter((r) => !r.description).map((r) => r.name)).toEqual([]);
    const names = rows.map((r) => r.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it("takes a row's default, range, unit and description from the schema", () => {
    const poll = z.coerce
      .number()
      .int()
      .min(50)
      .max(3_600_000)
      .default(300_000)
      .describe('How often.');
    expect(settingRow('JOBS_POLL_MS', poll)).toEqual({
      name: 'JOBS_POLL_MS',
      default: '`300000` (5 min)',
      accepts: '50–3600000 ms',
      description: 'How often.',
    });
    const perHour = z.coerce.number().min(1).max(9).default(3).describe('Count.');
    expect(settingRow('X_PER_HOUR', perHour).accepts).toBe('1–9');
    const secret = z.string().min(32).optional().meta({ unset: 'generated', description: 'Key.' });
    expect(settingRow('SECRET', secret)).toMatchObject({
      default: 'generated',
      accepts: 'text, at least 32 characters',
    });
    const flag = z.enum(['on', 'off']).default('off').describe('Flag.');
    expect(settingRow('FLAG', flag)).toMatchObject({ default: '`off`', accepts: '`on` or `off`' });
  });

  it('keeps the test-only knobs apart from what a deployment sets', () => {
    const testOnly = settingsSections.find((s) => s.title === 'Test only');
    expect(Object.keys(testOnly?.schema.shape ?? {}).sort()).toEqual([
      'JOBS_HEARTBEAT_MS',
      'PUSH_TEST_ENDPOINTS',
      'TEST_CLOCK_OFFSET_DAYS',
    ]);
  });
});
