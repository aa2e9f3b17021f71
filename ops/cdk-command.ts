import { parseArgs } from 'node:util';
import { RefusedError } from '../shared/refusal';
import { operatorMessage, stackName } from './stage-aws';
import { readStageNames, type StageTarget, stageRegion } from './stage-file';

// The CDK CLI, always for a named stage (issue 48): refused before any AWS client exists without one;
// deploy and destroy first name the account, region, stage and domain and ask, as terraform apply does.

export const CDK_COMMANDS = ['deploy', 'synth', 'diff', 'destroy'] as const;
export type CdkCommand = (typeof CDK_COMMANDS)[number];

/** The stage cdk.json's top-level context describes (example.com placeholders): synthesised offline. */
const BUILT_IN_STAGE = 'dev';

export interface CallerIdentity {
  account: string;
}

export interface CdkCommandDeps {
  out: (line: string) => void;
  err: (line: string) => void;
  env: Readonly<Record<string, string | undefined>>;
  cdkJsonPath: string;
  /** Asks a yes/no question at a terminal; absent without one. */
  ask?: ((question: string) => Promise<string>) | undefined;
  /** The account of the shell's credentials (the usual chain), asked in `region`. */
  callerIdentity: (region: string) => Promise<CallerIdentity>;
  /** Runs `npx cdk …` with the terminal attached; its exit code. */
  runCdk: (args: readonly string[]) => Promise<number>;
}

const YES = /^y(es)?$/i;

/** Under 40 lines, unlike CDK's own. */
function cdkUsage(command: CdkCommand): string[] {
  return [
    `Usage: npm run ${command} -- --stage NAME [--yes] [-- CDK flags]`,
    '',
    `Runs \`cdk ${command}\` for one stage, always named: stages are the blocks under context.stages`,
    'in cdk.json (npm run setup -- --stage NAME writes one); dev is the example stage with',
    'example.com placeholders, synthesised offline.',
    '',
    '  deploy    prints the account, region, stage and domain, asks, then deploys every stack',
    '  destroy   the same, then removes the app and edge stacks (the data stack only with',
    '            --with-data, once its protections are lifted: docs/deploy.md)',
    '  diff      what a deploy would change (reads the deployed stacks; does not ask)',
    '  synth     the templates and cdk-nag checks, offline (no AWS call)',
    '',
    '  --stage NAME   the stage (required)',
    '  --yes          do not ask: the answer of a pipeline, which has no terminal',
    '  --help         this text',
    '',
    'Flags after a second -- go to the CDK CLI as they are, e.g.',
    '  npm run deploy -- --stage test --yes -- --require-approval never',
    '  npm run diff -- --stage prod -- --fail',
    'docs/deploy.md has the whole procedure.',
  ];
}

/** The CDK CLI's exit code, or 1 when refused or not confirmed (nothing run). */
export async function runCdkCommand(
  command: CdkCommand,
  args: readonly string[],
  deps: CdkCommandDeps,
): Promise<number> {
  const split = args.indexOf('--');
  const own = split === -1 ? [...args] : args.slice(0, split);
  const cdkFlags = split === -1 ? [] : args.slice(split + 1);
  if (own.includes('--help') || own.includes('-h')) {
    for (const line of cdkUsage(command)) deps.out(line);
    return 0;
  }
  try {
    const { values } = parseArgs({
      args: own,
      strict: true,
      options: {
        stage: { type: 'string' },
        yes: { type: 'boolean', default: false },
        ...(command === 'destroy' && { 'with-data': { type: 'boolean' as const, default: false } }),
      },
    });
    const stages = readStageNames(deps.cdkJsonPath);
    const typed = values.stage?.trim() || undefined;
    // Synth touches no AWS: without a stage it checks the example stage, as `npm run synth` always did.
    const stage = typed ?? (command === 'synth' ? BUILT_IN_STAGE : undefined);
    if (stage === undefined) throw new RefusedError(sayWhichStage(command, stages));
    if (typed === undefined) deps.out(`No --stage: synthesising ${stage}, the example stage (offline).`);
    const block = stages.get(stage) ?? (stage === BUILT_IN_STAGE ? {} : undefined);
    if (block === undefined)
      throw new RefusedError(`no stage ${stage} in cdk.json; ${sayWhichStage(command, stages)}`);
    const withData = values['with-data'] === true;
    const cdkArgs = cdkArguments(command, stage, cdkFlags, withData);
    if (command === 'deploy' || command === 'destroy') {
      const confirmed = await confirmTarget(command, stage, block, values.yes === true, withData, deps);
      if (!confirmed) return 1;
    }
    return await deps.runCdk(cdkArgs);
  } catch (error) {
    const unknown = /^Unknown option '([^']+)'/.exec(error instanceof TypeError ? error.message : '');
    if (unknown !== null) {
      deps.err(
        `Refused: ${unknown[1]} is not a flag of npm run ${command}; CDK's flags go after a second --: npm run ${command} -- --stage NAME -- ${unknown[1]}`,
      );
      return 1;
    }
    deps.err(`Refused: ${operatorMessage(error)}`);
    return 1;
  }
}

/** "say which stage: npm run deploy -- --stage NAME (stages in cdk.json: prod, test; dev: …)". */
function sayWhichStage(command: CdkCommand, stages: ReadonlyMap<string, StageTarget>): string {
  const names = [...stages.keys()].filter((name) => name !== BUILT_IN_STAGE).sort();
  const listed = names.length === 0 ? 'none yet, npm run setup -- --stage NAME adds one' : names.join(', ');
  return `say which stage: npm run ${command} -- --stage NAME (stages in cdk.json: ${listed}; ${BUILT_IN_STAGE}: the example stage).`;
}

function cdkArguments(
  command: CdkCommand,
  stage: string,
  cdkFlags: readonly string[],
  withData = false,
): string[] {
  const context = ['-c', `stage=${stage}`, '--no-notices'];
  switch (command) {
    case 'deploy':
      return ['deploy', '--all', ...context, ...cdkFlags];
    // Asked once already, here: CDK's own per-stack question would come without a terminal too.
    // Not --all: the data stack's termination protection would fail it; it goes only when asked.
    case 'destroy':
      return ['destroy', ...context, '--force', ...destroyedStacks(stage, withData), ...cdkFlags];
    // synth and diff take every stack when none is named (they have no --all).
    case 'synth':
      return ['synth', ...context, '--quiet', '--no-version-reporting', ...cdkFlags];
    case 'diff':
      return ['diff', ...context, ...cdkFlags];
  }
}

function destroyedStacks(stage: string, withData: boolean): string[] {
  const app = stackName(stage);
  return [app, `${app}-Edge`, ...(withData ? [`${app}-Data`] : [])];
}

/** True to go ahead; refused when the stage is pinned to an account other than the credentials'. */
async function confirmTarget(
  command: 'deploy' | 'destroy',
  stage: string,
  block: StageTarget,
  yes: boolean,
  withData: boolean,
  deps: CdkCommandDeps,
): Promise<boolean> {
  const region = stageRegion(deps.env, block.region);
  let account: string;
  try {
    ({ account } = await deps.callerIdentity(region));
  } catch (error) {
    throw new RefusedError(
      `cannot tell which AWS account the shell's credentials are for (${operatorMessage(error)}): sign in (aws sso login, or aws configure) and run again.`,
    );
  }
  if (block.account !== undefined && block.account !== account)
    throw new RefusedError(
      `stage ${stage} belongs to account ${block.account} (cdk.json), but the shell's credentials are for ${account}: sign in to ${block.account}.`,
    );
  const domain = block.domainName ?? 'no custom domain';
  deps.out(
    command === 'deploy'
      ? `Deploys stage ${stage} (${domain}) to account ${account} in ${region}.`
      : `Destroys stage ${stage} (${domain}) in account ${account}, ${region}: ${destroyedStacks(stage, withData).join(', ')}${withData ? '' : ' (the data stack stays)'}.`,
  );
  if (yes) return true;
  if (deps.ask === undefined) {
    deps.err(`Nothing done: no terminal to ask in. Run again with --yes to ${command} stage ${stage}.`);
    return false;
  }
  const answer = await deps.ask(
    command === 'deploy'
      ? `Deploy stage ${stage} to account ${account} (${region})? [y/N] `
      : `Destroy stage ${stage} in account ${account} (${region})? [y/N] `,
  );
  if (YES.test(answer.trim())) return true;
  deps.err('Nothing done.');
  return false;
}

/** The SDK is loaded only here, so a refused command never loads it. */
export async function stsCallerIdentity(region: string): Promise<CallerIdentity> {
  const { STSClient, GetCallerIdentityCommand } = await import('@aws-sdk/client-sts');
  const sts = new STSClient({ region, maxAttempts: 1 });
  try {
    const { Account } = await sts.send(new GetCallerIdentityCommand({}));
    if (Account === undefined) throw new RefusedError('STS named no account');
    return { account: Account };
  } finally {
    sts.destroy();
  }
}
