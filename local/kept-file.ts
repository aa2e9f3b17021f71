import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { z } from 'zod';

/**
 * A stand-in's state kept in one JSON file between runs of `npm start` (docs/decisions/0046): read
 * once at start, written whole through a temporary file and a rename, so a stop mid-write leaves
 * the old file or the new one, never half of one. Only the user may read it (it can hold a
 * signing key and refresh tokens).
 */
export interface KeptFile<T> {
  readonly path: string;
  /**
   * The kept state, or undefined when there is none to use: no file yet, or one that is not JSON
   * or not this shape, which is moved aside (`<file>.corrupt-<time>`) so the next write cannot
   * lose it. Each case logs one line naming the file.
   */
  read(): T | undefined;
  /** Asks for a write of `snapshot()` shortly: many changes in a burst make one write. */
  touch(): void;
  /** Writes now, when anything changed since the last write. */
  flush(): void;
}

/** How long a change waits for the ones after it before the file is written. */
const WRITE_DELAY_MS = 50;

/**
 * The kept file of one stand-in. `part` names it in log lines ("Stripe simulator"), `schema`
 * checks what is read, `snapshot` makes what is written.
 */
export function keptFile<T>(options: {
  path: string;
  part: string;
  schema: z.ZodType<T>;
  snapshot: () => T;
  log: (line: string) => void;
  now?: () => Date;
}): KeptFile<T> {
  const { path, part, schema, log } = options;
  let written: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const putAside = (reason: string): undefined => {
    const stamp = (options.now?.() ?? new Date()).toISOString().replace(/[:.]/g, '-');
    const aside = `${path}.corrupt-${stamp}`;
    renameSync(path, aside);
    log(`${part}: ${path} could not be read (${reason}); kept aside as ${basename(aside)}, starting empty.`);
    return undefined;
  };

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const text = `${JSON.stringify(options.snapshot())}\n`;
    if (text === written) return;
    const temporary = `${path}.${process.pid}.tmp`;
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(temporary, text, { mode: 0o600 });
      chmodSync(temporary, 0o600);
      renameSync(temporary, path);
      written = text;
    } catch (error) {
      rmSync(temporary, { force: true });
      log(
        `${part}: could not keep its state in ${path}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };

  return {
    path,
    read() {
      if (!existsSync(path)) {
        log(`${part}: nothing kept yet in ${path}, starting empty.`);
        return undefined;
      }
      let json: unknown;
      try {
        json = JSON.parse(readFileSync(path, 'utf8'));
      } catch (error) {
        return putAside(error instanceof Error ? error.message : String(error));
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return putAside(
          `not a state this shop wrote: ${issue?.path.join('.') || 'top level'}: ${issue?.message}`,
        );
      }
      written = `${JSON.stringify(json)}\n`;
      return parsed.data;
    },
    touch() {
      if (timer !== undefined) return;
      timer = setTimeout(flush, WRITE_DELAY_MS);
      // A pending write never keeps a process alive: close() flushes.
      timer.unref();
    },
    flush,
  };
}
