import {
  formatDispatchDate,
  type IsoDate,
  isCalendarDate,
  nonWorkingDayKind,
  packingDay,
} from '../../shared/dispatch';
import type { AdminClient } from '../admin-client';
import type { ApiTarget } from '../sign-in';

// What every `npm run orders` command is made of: help text, target, and the flag readings groups share.

/** The parsed flags of a command line, as node:util's parseArgs gives them. */
export type Values = Record<string, string | boolean | Array<string | boolean> | undefined>;

/** Output and clock of one run: the process's in normal use, a test's in the tests. */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  now: () => Date;
  cwd: string;
  /** Where the target is remembered (main.ts: .orders-target.json); without it nothing is remembered. */
  targetFile?: string;
  /** Whether stdin and stdout are a terminal: the confirm rule asks there (ops/confirm.ts). */
  isTerminal: boolean;
  /** Asks at the terminal; an aborted signal withdraws the question (login: the browser came back). */
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

/** A command stopped by a failed service (email): its one line says what was done and what to run next. */
export class IncompleteError extends Error {}

/** A date the CLI resolves itself (a weekend day, `next`); every other value is checked by the API's schema. */
export function isoDate(value: unknown, flag: string): IsoDate {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new UsageError(`${flag} needs a date as YYYY-MM-DD.`);
  if (!isCalendarDate(value)) throw new UsageError(`${flag} ${value} is not a date: no such day.`);
  return value;
}

/** The dispatch day a `--date`/`--dispatch` value means; `next` (or none): the day to pack for next. */
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
