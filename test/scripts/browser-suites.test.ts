import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSuites } from '../../scripts/browser-suites';

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
      'Running slow and quick side by side; each prints when it ends.\n',
      '\n[quick] exited 0\nquick dots',
      '\n[slow] exited 0\nslow dots',
    ]);
  });

  it('keeps what a suite writes to stderr', async () => {
    const printed: string[] = [];

    await runSuites([nodeSuite('noisy', "process.stderr.write('an error line')")], (text) =>
      printed.push(text),
    );

    expect(printed.at(-1)).toBe('\n[noisy] exited 0\nan error line');
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
    expect(printed.slice(1).sort()).toEqual(['\n[local] exited 0\nok', '\n[rehearsal] exited 2\nF']);
  });
});
