import {
  formatDispatchDate,
  type IsoDate,
  isCalendarDate,
  nonWorkingDayKind,
  packingDay,
} from '../../shared/dispatch';
import type { AdminClient } from '../admin-client';
import type { ApiTarget } from '../sign-in';

/*
 * What every command of `npm run orders` is made of: its help text, what it runs on, and the few
 * readings of flags more than one command group shares. ops/cli.ts names the commands and runs them.
 */

/** The parsed flags of a command line, as node:util's parseArgs gives them. */
export type Values = Record<string, string | boolean | Array<string | boolean> | undefined>;

/** Output and clock of one run: the process's in normal use, a test's in the tests. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  now: () => Date;
  cwd: string;
  /**
   * Where the target is remembered (main.ts: the repository's .orders-target.json); without it,
   * as in most tests, nothing is remembered and nothing is read.
   */
  targetFile?: string;
  /** Whether stdin and stdout are a terminal: the confirm rule asks there (ops/confirm.ts). */
  isTerminal: boolean;
  /**
   * Asks at the terminal and resolves with the line typed (main.ts: node:readline); an aborted
   * signal withdraws the question (login: the browser came back by itself) and rejects.
   */
  ask(question: string, options?: { signal?: AbortSignal }): Promise<string>;
}

/** The shop a command acts on: the admin API, signed in as a merchant. */
export interface Shop {
  description: string;
  api: AdminClient;
}

/** What `help` and `<command> --help` print; the usage line also declares the flags (command-line.ts's optionsOf). */
export interface CommandText {
  summary: string;
  usage: string;
  /** Extra lines of --help. */
  details: string[];
}

/** A command on the shop's orders, through the admin API. */
export interface ShopCommand extends CommandText {
  positionals: 'none' | 'one' | 'many';
  run(shop: Shop, values: Values, positionals: string[], io: CliIo): Promise<void>;
}

/** `login` and `logout`: on the target's sign-in, not on the shop. */
export interface SignInCommand extends CommandText {
  positionals: 'none';
  runSignIn(target: ApiTarget, io: CliIo): Promise<void>;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A mistake in how the command was typed: printed with the command's usage. */
export class UsageError extends Error {}

/**
 * A command that could not finish because a service failed (email): its message, one line, says
 * what was done and what was not, and what to run next. Printed as it is; exit 1.
 */
export class IncompleteError extends Error {}

/**
 * A date the CLI must resolve itself (a weekend day to its dispatch day, `next`): the rest of
 * every value is checked once, by the admin API's shared schema.
 */
export function isoDate(value: unknown, flag: string): IsoDate {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new UsageError(`${flag} needs a date as YYYY-MM-DD.`);
  if (!isCalendarDate(value)) throw new UsageError(`${flag} ${value} is not a date: no such day.`);
  return value;
}

/**
 * The dispatch day a `--date`/`--dispatch` value means; `next` (or none) is the day the merchant
 * packs for next, as the admin API's status says it.
 */
export async function dispatchDayFor(
  value: unknown,
  flag: string,
  shop: Shop,
): Promise<{ day: IsoDate; note?: string }> {
  if (value === undefined || value === 'next') return { day: (await shop.api.status()).next.date };
  const asked = isoDate(value, flag);
  const day = packingDay(asked);
  return day === asked
    ? { day }
    : {
        day,
        note: `${formatDispatchDate(asked)} is ${nonWorkingDayKind(asked)}: using the dispatch day ${formatDispatchDate(day)}.`,
      };
}

/** The order as it stands, or undefined when the admin API does not answer that either. */
export function orderIfAnswered(shop: Shop, reference: string) {
  return shop.api.order({ reference }).then(
    ({ record }) => record,
    () => undefined,
  );
}
