import {
  formatDispatchDate,
  type IsoDate,
  isCalendarDate,
  nonWorkingDayKind,
  packingDay,
} from '../../shared/dispatch';
import type { AdminClient } from '../admin-client';
import type { ApiTarget } from '../sign-in';

export type Values = Record<string, string | boolean | Array<string | boolean> | undefined>;

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  now: () => Date;
  cwd: string;
  /** Where the target is remembered; without it (most tests) nothing is remembered or read. */
  targetFile?: string;
  /** Whether stdin and stdout are a terminal: the confirm rule asks there (ops/confirm.ts). */
  isTerminal: boolean;
  /** An aborted signal withdraws the question (login: the browser came back by itself) and rejects. */
  ask(question: string, options?: { signal?: AbortSignal }): Promise<string>;
}

export interface Shop {
  description: string;
  api: AdminClient;
}

/** What `help` and `<command> --help` print; the usage line also declares the flags (command-line.ts's optionsOf). */
export interface CommandText {
  summary: string;
  usage: string;
  details: string[];
}

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

export class UsageError extends Error {}

/** A service (email) failed: its message says what was done, what was not, and what to run next. */
export class IncompleteError extends Error {}

/** Only dates the CLI resolves itself: every other value is checked once, by the admin API's schema. */
export function isoDate(value: unknown, flag: string): IsoDate {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new UsageError(`${flag} needs a date as YYYY-MM-DD.`);
  if (!isCalendarDate(value)) throw new UsageError(`${flag} ${value} is not a date: no such day.`);
  return value;
}

/** `next` (or none) is the day the merchant packs for next, as the admin API's status says it. */
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

/** Undefined when the admin API does not answer that either. */
export function orderIfAnswered(shop: Shop, reference: string) {
  return shop.api.order({ reference }).then(
    ({ record }) => record,
    () => undefined,
  );
}
