import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DECISIONS = fileURLToPath(new URL('../../docs/decisions', import.meta.url));
const records = readdirSync(DECISIONS).filter((name) => /^\d{4}-.+\.md$/.test(name));

describe('decision records', () => {
  it('exist', () => {
    expect(records.length).toBeGreaterThanOrEqual(8);
  });

  it.each(records)('%s has a title, Status, Date, Context, Decision and Consequences', (name) => {
    const text = readFileSync(join(DECISIONS, name), 'utf8');

    expect(text).toMatch(new RegExp(`^# ${Number(name.slice(0, 4))}\\. \\S`));
    expect(text).toMatch(/^Status: (proposed|accepted|superseded|deprecated)\b/m);
    expect(text).toMatch(/^Date: \d{4}-\d{2}-\d{2}$/m);
    for (const heading of ['## Context', '## Decision', '## Consequences']) {
      expect(text.split('\n')).toContain(heading);
    }
  });

  it('are numbered once each', () => {
    const numbers = records.map((name) => name.slice(0, 4));

    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('are each in the index, once, saying whether they still stand', () => {
    const index = readFileSync(join(DECISIONS, 'README.md'), 'utf8');
    const rows = [...index.matchAll(/^\| (\d{4}) +\| .*\| (yes|in part|no) +\|$/gm)].map((m) => ({
      number: m[1],
      stands: m[2],
    }));

    expect(rows.map((row) => row.number)).toEqual(records.map((name) => name.slice(0, 4)));
    for (const name of records) {
      const status = /^Status: (\w+)/m.exec(readFileSync(join(DECISIONS, name), 'utf8'))?.[1];
      const row = rows.find((r) => r.number === name.slice(0, 4));
      // A record whose own status says superseded never stands in full.
      if (status === 'superseded') expect([name, row?.stands]).not.toEqual([name, 'yes']);
    }
  });
});
