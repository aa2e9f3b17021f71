import { parseArgs } from 'node:util';
import { RefusedError } from '../shared/refusal';
import { AdminUnavailableError, createAdminClient, InvalidInputError, SignedOutError } from './admin-client';
import {
  closest,
  commandHelp,
  negativeNumbersAsValues,
  optionsOf,
  overview,
  parseMistake,
  referencesMistake,
  TARGET_OPTIONS,
  usageLines,
} from './command-line';
import { capacityCommand } from './commands/capacity';
import {
  type CliIo,
  IncompleteError,
  type Shop,
  type ShopCommand,
  type SignInCommand,
  text,
  UsageError,
  type Values,
} from './commands/command';
import { dispatchListCommand, markDispatchedCommand, trackingCommand } from './commands/dispatch';
import {
  type MerchantCommand,
  type MerchantPoolTarget,
  merchantCommand,
  merchantPoolTarget,
} from './commands/merchant';
import { addressCommand, refundCommand, revokeLinkCommand } from './commands/order-changes';
import { findCommand, listCommand } from './commands/orders';
import { declineCommand, requestPaymentCommand } from './commands/requests';
import { pauseCommand, resumeCommand, statusCommand } from './commands/shop';
import { loginCommand, logoutCommand } from './commands/sign-in';
import { cancelStandingOrderCommand, standingOrdersCommand } from './commands/standing-orders';
import { delayCommand, weatherCommand, weatherThresholdsCommand } from './commands/weather';
import { NothingDoneError } from './confirm';
import { type ApiTarget, signedInTransport } from './sign-in';
import { apiTarget } from './stack-target';
import {
  chooseTarget,
  describeChoice,
  readRememberedTarget,
  rememberTarget,
  TARGET_FILE_NAME,
  type TargetChoice,
} from './target-choice';

type Command = ShopCommand | SignInCommand | MerchantCommand;

/** Every command, in the order `help` lists them. */
const COMMANDS: Record<string, Command> = {
  login: loginCommand,
  logout: logoutCommand,
  list: listCommand,
  find: findCommand,
  'dispatch-list': dispatchListCommand,
  weather: weatherCommand,
  'weather-thresholds': weatherThresholdsCommand,
  'mark-dispatched': markDispatchedCommand,
  delay: delayCommand,
  tracking: trackingCommand,
  address: addressCommand,
  'revoke-link': revokeLinkCommand,
  refund: refundCommand,
  pause: pauseCommand,
  resume: resumeCommand,
  status: statusCommand,
  capacity: capacityCommand,
  'request-payment': requestPaymentCommand,
  decline: declineCommand,
  'standing-orders': standingOrdersCommand,
  'cancel-standing-order': cancelStandingOrderCommand,
  merchant: merchantCommand,
};

/** Whether a command follows the confirm rule (it takes --yes): what a script must add to act. */
export function asksFirst(name: string): boolean {
  const command = COMMANDS[name];
  return command !== undefined && 'yes' in optionsOf(command.usage);
}

type CommandLine =
  | {
      name: string;
      command: Command;
      values: Values;
      positionals: string[];
      mistyped(mistake: string): number;
    }
  | { code: number };

/** Runs one command line; resolves with the exit code (0 done, 1 refused, 2 mistyped). */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  openShop: (target: ApiTarget, io: CliIo) => Promise<Shop> = signedInShop,
  makeMerchantPool: (choice: TargetChoice) => Promise<MerchantPoolTarget> = merchantPoolTarget,
): Promise<number> {
  const line = readCommandLine(argv, io);
  if ('code' in line) return line.code;
  const { name, command, values, positionals, mistyped } = line;
  let target: { close(): void } | undefined;
  let choice: TargetChoice | undefined;
  try {
    const remembered = io.targetFile === undefined ? undefined : readRememberedTarget(io.targetFile);
    const chosen = chooseTarget(
      { local: values.local === true, stage: text(values.stage), region: text(values.region) },
      io.env,
      remembered,
    );
    if (chosen === 'both') return mistyped('say where once: --local or --stage NAME, not both');
    if (chosen === undefined) {
      io.err(
        `Say where: --local, --stage NAME, or set ORDERS_STAGE (the first --local or --stage is then remembered in ${TARGET_FILE_NAME}).\n${usageLines(name, command)}`,
      );
      return 2;
    }
    choice = chosen.choice;
    const opened =
      'runOnPool' in command
        ? await makeMerchantPool(choice).then((pool) => ({
            target: pool,
            run: () => command.runOnPool(pool, values, positionals, io),
          }))
        : await openApiTarget(choice, io, command, values, positionals, openShop);
    target = opened.target;
    io.err(
      `[${opened.target.description}]${chosen.source === 'command line' ? '' : chosen.source === 'file' ? ` remembered in ${io.targetFile}` : ' from ORDERS_STAGE'}`,
    );
    if (
      io.targetFile !== undefined &&
      chosen.source === 'command line' &&
      remembered === undefined &&
      !io.env.ORDERS_STAGE
    ) {
      rememberTarget(io.targetFile, choice);
      io.err(
        `Remembered: later commands act on ${describeChoice(choice)} without --local or --stage (${io.targetFile}; delete it to choose again).`,
      );
    }
    await opened.run();
    return 0;
  } catch (error) {
    return failureCode(error, io, choice, mistyped);
  } finally {
    target?.close();
  }
}

/** The command, its flags and references; help, or a mistake with the command's usage, is printed here. */
function readCommandLine(argv: readonly string[], io: CliIo): CommandLine {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(overview(COMMANDS));
    return { code: name === undefined ? 2 : 0 };
  }
  const command = COMMANDS[name];
  if (!command) {
    const guess = closest(name, Object.keys(COMMANDS));
    io.err(
      `Unknown command "${name}"${guess === undefined ? '' : ` (did you mean ${guess}?)`}.\n\n${overview(COMMANDS)}`,
    );
    return { code: 2 };
  }
  const options = { ...optionsOf(command.usage), ...TARGET_OPTIONS };
  const mistyped = (mistake: string) => {
    io.err(`${name}: ${mistake}\n${usageLines(name, command)}`);
    return 2;
  };
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({
      args: negativeNumbersAsValues(rest, options),
      options,
      allowPositionals: command.positionals !== 'none',
      strict: true,
    });
  } catch (error) {
    return { code: mistyped(parseMistake(error, options)) };
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(commandHelp(command));
    return { code: 0 };
  }
  const wrongReferences =
    'positionalsMistake' in command
      ? command.positionalsMistake(positionals)
      : referencesMistake(command.positionals, positionals);
  if (wrongReferences !== undefined) return { code: mistyped(wrongReferences) };
  return { name, command, values, positionals, mistyped };
}

/** A command's failure said in the operator's words, and its exit code; anything else unknown is thrown on. */
function failureCode(
  error: unknown,
  io: CliIo,
  choice: TargetChoice | undefined,
  mistyped: (mistake: string) => number,
): number {
  if (error instanceof UsageError || error instanceof InvalidInputError) return mistyped(error.message);
  if (error instanceof RefusedError) {
    io.err(`Refused: ${error.message}`);
    return 1;
  }
  if (error instanceof IncompleteError || error instanceof NothingDoneError) {
    io.err(error.message);
    return 1;
  }
  if (error instanceof SignedOutError && choice !== undefined) {
    io.err(
      `${error.message} Sign in first: npm run orders -- login${choice.kind === 'local' ? ' --local' : ` --stage ${choice.stage}`}`,
    );
    return 1;
  }
  if (error instanceof AdminUnavailableError) {
    io.err(
      choice?.kind === 'local' && /ECONNREFUSED|fetch failed/.test(error.message)
        ? 'The local stack is not running: start it with `npm start` (or set ORDERS_LOCAL_URL to its address).'
        : error.message,
    );
    return 1;
  }
  throw error;
}

/** A signed-in command finds its site and token in the kept sign-in, so it needs no AWS credentials. */
async function openApiTarget(
  choice: TargetChoice,
  io: CliIo,
  command: ShopCommand | SignInCommand,
  values: Values,
  positionals: string[],
  openShop: (target: ApiTarget, io: CliIo) => Promise<Shop>,
): Promise<{ target: { description: string; close(): void }; run(): Promise<void> }> {
  const target = apiTarget(choice, io.env);
  if ('runSignIn' in command)
    return { target: { ...target, close() {} }, run: () => command.runSignIn(target, io) };
  const shop = await openShop(target, io);
  return { target: { ...shop, close() {} }, run: () => command.run(shop, values, positionals, io) };
}

async function signedInShop(target: ApiTarget, io: CliIo): Promise<Shop> {
  return { description: target.description, api: createAdminClient(signedInTransport(target, io)) };
}
