import { describe, expect, it } from 'vitest';
import { runSuites } from '../../scripts/browser-suites';

/** A suite that is one real process: Node writing `text` after `delayMs`, then exiting with `code`. */
function nodeSuite(name: string, text: string, code: number, delayMs = 0) {
  const script = `setTimeout(() => { process.stdout.write(${JSON.stringify(text)}); process.exit(${code}); }, ${delayMs});`;
  return { name, args: ['node', '-e', script] };
}

describe('runSuites', () => {
  it('runs the suites at once and prints each whole as it ends, the quicker first', async () => {
    const printed: string[] = [];

    const code = await runSuites(
      [nodeSuite('slow', 'slow dots', 0, 1_500), nodeSuite('quick', 'quick dots', 0)],
      (text) => printed.push(text),
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

    await runSuites(
      [{ name: 'noisy', args: ['node', '-e', "process.stderr.write('an error line')"] }],
      (text) => printed.push(text),
    );

    expect(printed.at(-1)).toBe('\n[noisy] exited 0\nan error line');
  });

  it('exits with a failing suite’s code when the other passes, after both have ended', async () => {
    const printed: string[] = [];

    const code = await runSuites([nodeSuite('local', 'ok', 0, 300), nodeSuite('rehearsal', 'F', 2)], (text) =>
      printed.push(text),
    );

    expect(code).toBe(2);
    expect(printed.at(-1)).toBe('\n[local] exited 0\nok');
  });
});
