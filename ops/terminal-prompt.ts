import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import type { Prompter } from './setup';

/** Readline echoes through its output stream, so a stream that drops everything while a secret is typed. */
export function terminalPrompt(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Prompter {
  return async (question, { default: fallback, secret = false }) => {
    let muted = false;
    const echo = new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        if (!muted) output.write(chunk);
        done();
      },
    });
    const lines = createInterface({ input, output: echo, terminal: true });
    try {
      const shown = fallback === undefined ? '' : secret ? ' [keep the current one]' : ` [${fallback}]`;
      const answer = lines.question(`${question}${shown}: `);
      muted = secret;
      return await answer;
    } finally {
      muted = false;
      if (secret) output.write('\n');
      lines.close();
    }
  };
}

/** A yes/no question on a terminal, asked as it is written ("Go ahead? [y/N] "): the line typed. */
export function terminalQuestion(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): (question: string, options?: { signal?: AbortSignal }) => Promise<string> {
  return async (question, { signal } = {}) => {
    const lines = createInterface({ input, output, terminal: true });
    try {
      return await (signal === undefined ? lines.question(question) : lines.question(question, { signal }));
    } catch (error) {
      // A withdrawn question leaves the cursor after it: what is printed next starts a line.
      if (signal?.aborted) output.write('\n');
      throw error;
    } finally {
      lines.close();
    }
  };
}
