import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSuites } from '../../scripts/test-suites';

/** A suite that is one real process: Node running `script`. */
function nodeSuite(name: string, script: string) {
  return { name, args: ['node', '-e', script] };
}

describe('runSuites', () => {
  it('runs the suites at once and prints each whole as it ends', async () => {
    // The first suite ends only once the second's process is gone: run one after the other, the
    // first would never end.
    const marker = join(mkdtempSync(join(tmpdir(), 'suites-')), 'quick-pid');
    const waits = `const fs = require('node:fs');
      const gone = (pid) => { try { process.kill(pid, 0); return false; } catch { return true; } };
      const tick = setInterval(() => {
        const pid = fs.existsSync(${JSON.stringify(marker)}) && Number(fs.readFileSync(${JSON.stringify(marker)}, 'utf8'));
        if (pid && gone(pid)) { clearInterval(tick); setTimeout(() => process.stdout.write('slow dots'), 200); }
      }, 20);`;
    const quick = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, String(process.pid)); process.stdout.write('quick dots');`;
    const printed: string[] = [];

    const code = await runSuites([nodeSuite('slow', waits), nodeSuite('quick', quick)], (text) =>
      printed.push(text),
    );

    expect(code).toBe(0);
    expect(printed).toEqual([
      'Running slow; quick at once; each prints when it ends.\n',
      '\n[quick] exited 0\nquick dots',
      '\n[slow] exited 0\nslow dots',
      '\nAll 2 suites passed.\n',
    ]);
  });

  it('keeps what a suite writes to stderr', async () => {
    const printed: string[] = [];

    await runSuites([nodeSuite('noisy', "process.stderr.write('an error line')")], (text) =>
      printed.push(text),
    );

    expect(printed.at(-2)).toBe('\n[noisy] exited 0\nan error line');
  });

  it('exits with the failing suite’s code when the other passes, both printed', async () => {
    const printed: string[] = [];

    const code = await runSuites(
      [
        nodeSuite('local', "process.stdout.write('ok')"),
        nodeSuite('rehearsal', "process.stdout.write('F'); process.exit(2)"),
      ],
      (text) => printed.push(text),
    );

    expect(code).toBe(2);
    expect(printed.slice(1, -1).sort()).toEqual(['\n[local] exited 0\nok', '\n[rehearsal] exited 2\nF']);
    expect(printed.at(-1)).toBe('\n1 of 2 suites failed.\n[rehearsal] FAILED (exit 2):\nF\n');
  });

  it('starts a suite once its step has passed, the step run once for all, a suite without one at once', async () => {
    // The step waits for the first suite's marker: had that suite waited for the step, it would never end.
    const marker = join(mkdtempSync(join(tmpdir(), 'suites-')), 'started');
    const build = {
      name: 'build',
      args: [
        'node',
        '-e',
        `const fs = require('node:fs');
        const tick = setInterval(() => {
          if (fs.existsSync(${JSON.stringify(marker)})) { clearInterval(tick); fs.appendFileSync(${JSON.stringify(marker)}, 'built;'); }
        }, 20);`,
      ],
    };
    const read = `require('node:fs').appendFileSync(${JSON.stringify(marker)}, 'suite;')`;
    const printed: string[] = [];

    const code = await runSuites(
      [
        nodeSuite('at once', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'first;')`),
        { ...nodeSuite('one', read), after: build },
        { ...nodeSuite('two', read), after: build },
      ],
      (text) => printed.push(text),
    );

    expect(code).toBe(0);
    expect(readFileSync(marker, 'utf8')).toBe('first;built;suite;suite;');
    // A step that passed saying nothing prints nothing.
    expect(printed[0]).toBe(
      'Running at once; one (after the build); two (after the build) at once; each prints when it ends.\n',
    );
    expect(printed.slice(1, -1).sort()).toEqual([
      '\n[at once] exited 0\n',
      '\n[one] exited 0\n',
      '\n[two] exited 0\n',
    ]);
    expect(printed.at(-1)).toBe('\nAll 3 suites passed.\n');
  });

  it('a failed step: its output once, its suites not run and failing with its code', async () => {
    const build = { name: 'build', args: ['node', '-e', "process.stderr.write('no site'); process.exit(3)"] };
    const printed: string[] = [];

    const code = await runSuites(
      [
        nodeSuite('unit', "process.stdout.write('ok')"),
        { ...nodeSuite('browser', "process.stdout.write('ran')"), after: build },
      ],
      (text) => printed.push(text),
    );

    expect(code).toBe(3);
    expect(printed.slice(1, -1).sort()).toEqual([
      '\n[browser] not run: build exited 3\n',
      '\n[build] exited 3\nno site',
      '\n[unit] exited 0\nok',
    ]);
    expect(printed.at(-1)).toBe('\n1 of 2 suites failed.\n[browser] FAILED (exit 3):\nno site\n');
  });

  it('ends with each failing suite’s names: vitest’s FAIL lines and the runner’s last lines', async () => {
    // 20 lines: a FAIL line far above the end, an error, then 12 lines of summary.
    const vitestLike = [
      // vitest colours its FAIL label when the output is a terminal or FORCE_COLOR is set.
      '\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m test/pricing.test.ts > prices 2 bottles at 1300 pence',
      'AssertionError: expected 1200 to be 1300',
      ...Array.from({ length: 6 }, (_, i) => `  at frame ${i}`),
      ...Array.from({ length: 11 }, (_, i) => `summary ${i}`),
      ' Test Files  1 failed | 3 passed (4)',
    ].join('\n');
    const printed: string[] = [];

    const code = await runSuites(
      [nodeSuite('unit', `process.stdout.write(${JSON.stringify(vitestLike)}); process.exit(1)`)],
      (text) => printed.push(text),
    );

    expect(code).toBe(1);
    const summary = printed.at(-1) ?? '';
    expect(summary.split('\n').slice(0, 4)).toEqual([
      '',
      '1 of 1 suites failed.',
      '[unit] FAILED (exit 1):',
      '\u001b[41m\u001b[1m FAIL \u001b[22m\u001b[49m test/pricing.test.ts > prices 2 bottles at 1300 pence',
    ]);
    expect(summary).not.toContain('AssertionError');
    expect(summary).not.toContain('frame 5');
    expect(summary).toContain('summary 0');
    expect(summary.endsWith(' Test Files  1 failed | 3 passed (4)\n')).toBe(true);
  });
});
