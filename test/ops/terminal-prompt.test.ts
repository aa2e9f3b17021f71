import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { terminalPrompt, terminalQuestion } from '../../ops/terminal-prompt';

/** A terminal: what is typed goes in, everything written comes out as text. */
function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  return { input, output, written: () => written };
}

describe('the terminal prompt', () => {
  it('shows the default and returns what is typed', async () => {
    const { input, output, written } = terminal();
    const asking = terminalPrompt(input, output)('Seller', { default: 'Daphnia Direct Ltd' });

    input.write('Daphnia Direct Trading Ltd\r');

    expect(await asking).toBe('Daphnia Direct Trading Ltd');
    expect(written()).toContain('Seller [Daphnia Direct Ltd]: ');
    expect(written()).toContain('Daphnia Direct Trading Ltd');
  });

  it('neither echoes a secret as it is typed nor shows its current value', async () => {
    const { input, output, written } = terminal();
    const asking = terminalPrompt(input, output)('Checkout key', { default: 'rk_test_stored', secret: true });

    input.write('rk_test_typednew\r');

    expect(await asking).toBe('rk_test_typednew');
    expect(written()).toContain('Checkout key [keep the current one]: ');
    expect(written()).not.toContain('rk_test_');
  });

  it('asks a yes/no question as it is written and returns the line typed', async () => {
    const { input, output, written } = terminal();
    const asking = terminalQuestion(input, output)('Go ahead? [y/N] ');

    input.write('y\r');

    expect(await asking).toBe('y');
    expect(written()).toContain('Go ahead? [y/N] ');
  });

  it('withdraws a question when its signal aborts: rejects, starts a new line, and lets go of the input', async () => {
    const { input, output, written } = terminal();
    const withdraw = new AbortController();
    const asking = terminalQuestion(input, output)('Address the browser ended on: ', {
      signal: withdraw.signal,
    });

    withdraw.abort();

    await expect(asking).rejects.toThrow();
    expect(written()).toContain('Address the browser ended on: ');
    expect(written().endsWith('\n')).toBe(true);
    expect(input.isPaused()).toBe(true);
  });
});
