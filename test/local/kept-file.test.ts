import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { keptFile } from '../../local/kept-file';

let folder = '';
let logged: string[] = [];
let state: { count: number } = { count: 0 };

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'kept-file-'));
  logged = [];
  state = { count: 0 };
});

function kept(path = join(folder, 'part.json')) {
  return keptFile({
    path,
    part: 'Part',
    schema: z.object({ count: z.number().int() }),
    snapshot: () => state,
    log: (line) => logged.push(line),
    now: () => new Date('2026-12-06T20:00:00.000Z'),
  });
}

describe('a stand-in state kept in a file', () => {
  it('writes the whole state through a rename, for the user only, and reads it back', () => {
    const file = kept(join(folder, 'nested', 'part.json'));
    state = { count: 3 };

    file.flush();

    expect(readdirSync(join(folder, 'nested'))).toEqual(['part.json']);
    expect(statSync(join(folder, 'nested', 'part.json')).mode & 0o777).toBe(0o600);
    expect(kept(join(folder, 'nested', 'part.json')).read()).toEqual({ count: 3 });
  });

  it('makes one write of a burst of changes, shortly after the first', async () => {
    const file = kept();
    state = { count: 1 };
    file.touch();
    state = { count: 2 };
    file.touch();

    expect(readdirSync(folder)).toEqual([]);
    await new Promise((wait) => setTimeout(wait, 150));
    expect(JSON.parse(readFileSync(join(folder, 'part.json'), 'utf8'))).toEqual({ count: 2 });
  });

  it('a missing file: undefined, and a line saying it starts empty', () => {
    expect(kept().read()).toBeUndefined();
    expect(logged).toEqual([`Part: nothing kept yet in ${join(folder, 'part.json')}, starting empty.`]);
  });

  it('a file of another shape is moved aside, named in one line, and the next write leaves it be', () => {
    writeFileSync(join(folder, 'part.json'), '{"count":"three"}');
    const file = kept();

    expect(file.read()).toBeUndefined();
    state = { count: 4 };
    file.flush();

    expect(logged).toEqual([
      `Part: ${join(folder, 'part.json')} could not be read (not a state this shop wrote: count: Invalid input: expected number, received string); kept aside as part.json.corrupt-2026-12-06T20-00-00-000Z, starting empty.`,
    ]);
    expect(readFileSync(join(folder, 'part.json.corrupt-2026-12-06T20-00-00-000Z'), 'utf8')).toBe(
      '{"count":"three"}',
    );
    expect(JSON.parse(readFileSync(join(folder, 'part.json'), 'utf8'))).toEqual({ count: 4 });
  });

  it('a write that fails is logged and leaves no temporary file', () => {
    // Prepare: a folder where the file should be, so the rename cannot replace it.
    mkdirSync(join(folder, 'part.json'));
    writeFileSync(join(folder, 'part.json', 'inside'), '');
    const file = kept();

    file.flush();

    expect(readdirSync(folder)).toEqual(['part.json']);
    expect(logged.join('\n')).toMatch(/^Part: could not keep its state in .*part\.json: /);
  });
});
