import type { ParseArgsConfig } from 'node:util';
import { editDistance } from '../shared/email-suggestion';
import type { CommandText } from './commands/command';
import { TARGET_FILE_NAME } from './target-choice';

export type Options = NonNullable<ParseArgsConfig['options']>;

const TARGET_HELP = [
  'Where: --local (the stack of `npm start`) or --stage NAME [--region R] (a deployed stage,',
  'found from its CloudFormation outputs with your own AWS credentials). The first one given is',
  `remembered in ${TARGET_FILE_NAME} (delete it to choose again); ORDERS_STAGE=NAME or local`,
  '(and ORDERS_REGION) sets it for a shell. Given on the command line, --local or --stage wins.',
];

const WHERE = '[--local | --stage NAME]';

export function usageLines(name: string, command: CommandText): string {
  return [
    `Usage: npm run orders -- ${command.usage} ${WHERE}`,
    `(\`npm run orders -- ${name} --help\` says more.)`,
  ].join('\n');
}

export function commandHelp(command: CommandText): string {
  return [
    `npm run orders -- ${command.usage} ${WHERE}`,
    '',
    `${command.summary}.`,
    ...command.details,
    '',
    ...TARGET_HELP,
  ].join('\n');
}

export function overview(commands: Readonly<Record<string, CommandText>>): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  return [
    `npm run orders -- <command> [options] ${WHERE}`,
    '',
    'Commands:',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    ...TARGET_HELP,
    'A command that emails, refunds or changes an order prints what it will do and asks "Go ahead? [y/N]";',
    'without a terminal it acts only with --yes; --dry-run prints the plan and changes nothing.',
    "Run `npm run orders -- <command> --help` for a command's options.",
  ].join('\n');
}

/** Read from the usage line, so the line and the parser cannot disagree; `[--name VALUE]...` repeats. */
export function optionsOf(usage: string): Options {
  const options: Options = {};
  for (const [, name = '', value, repeats] of usage.matchAll(/--([a-z-]+)( [^\s[\]|-][^\s\]]*)?(\]\.\.\.)?/g))
    options[name] = value ? { type: 'string', ...(repeats && { multiple: true }) } : { type: 'boolean' };
  return options;
}

export const TARGET_OPTIONS: Options = {
  local: { type: 'boolean' },
  stage: { type: 'string' },
  region: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

/** The known name a typo most likely meant: within two edits, ignoring case, else none. */
export function closest(typed: string, known: readonly string[]): string | undefined {
  const scored = known
    .map((name) => ({ name, distance: editDistance(typed.toLowerCase(), name.toLowerCase()) }))
    .filter((s) => s.distance <= 2)
    .sort((a, b) => a.distance - b.distance);
  return scored[0]?.name;
}

/** parseArgs's refusal in the command's words rather than Node's (positionals, option arguments). */
export function parseMistake(error: unknown, options: Options): string {
  const code = error instanceof Error && 'code' in error ? error.code : undefined;
  const message = error instanceof Error ? error.message : '';
  // Node quotes the option first: "Unknown option '--x'", "Option '--to <value>' argument missing".
  const flag = /'(-[^' ]*)/.exec(message)?.[1] ?? '';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const guess = flag.startsWith('--') ? closest(flag.slice(2), Object.keys(options)) : undefined;
      return `unknown flag ${flag}${guess === undefined ? '' : ` (did you mean --${guess}?)`}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(message) ? `${flag} takes no value` : `${flag} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const argument = /Unexpected argument '([^']*)'/.exec(message)?.[1] ?? '';
      return `unexpected "${argument}": this command takes no reference`;
    }
    default:
      throw error;
  }
}

/** `--set -1` as `--set=-1`: parseArgs would take -1 for a flag and say "--set needs a value". */
export function negativeNumbersAsValues(args: readonly string[], options: Options): string[] {
  const joined: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] ?? '';
    const next = args[index + 1];
    const takesValue = arg.startsWith('--') && options[arg.slice(2)]?.type === 'string';
    if (takesValue && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      index += 1;
    } else joined.push(arg);
  }
  return joined;
}

export function referencesMistake(
  expected: 'none' | 'one' | 'many',
  given: readonly string[],
): string | undefined {
  if (expected === 'one' && given.length === 0) return 'give the order reference';
  if (expected === 'one' && given.length > 1)
    return `give one order reference, not ${given.length} (${given.join(' ')})`;
  if (expected === 'many' && given.length === 0) return 'give at least one order reference';
  return undefined;
}
