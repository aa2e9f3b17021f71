import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { RefusedError } from '../../shared/refusal';
import { APP_OUTPUT_KEYS } from '../../shared/stack-outputs';
import { alignColumns } from '../format';
import { addMerchant, listMerchants, type MerchantPool, removeMerchant } from '../merchant-accounts';
import { readStackOutputs } from '../stack-target';
import type { TargetChoice } from '../target-choice';
import type { CommandText, Values } from './command';

// `merchant` acts on the stage's user pool, not on the shop's orders, so it has a target of its own.

/** What the merchant command acts on: a stage's user pool, or the local stack, which has none. */
export type MerchantPoolTarget =
  | { kind: 'local'; description: string; close(): void }
  | { kind: 'pool'; description: string; pool: MerchantPool; close(): void };

/** The local merchant as local/dev-server.ts seeds it when the variables are unset. */
const LOCAL_MERCHANT_DEFAULTS = { email: 'merchant@live-aquatics.test', password: 'Daphnia-Local-2026' };

export async function merchantPoolTarget(choice: TargetChoice): Promise<MerchantPoolTarget> {
  if (choice.kind === 'local') {
    return { kind: 'local', description: 'local stack (its merchant is seeded by npm start)', close() {} };
  }
  const { stack, region, output } = await readStackOutputs(choice);
  const userPoolId = output(APP_OUTPUT_KEYS.adminUserPoolId);
  const client = new CognitoIdentityProviderClient({ region });
  return {
    kind: 'pool',
    description: `stage ${choice.stage} (stack ${stack}, ${region}, user pool ${userPoolId})`,
    pool: { client, userPoolId },
    close: () => client.destroy(),
  };
}

interface MerchantIo {
  out: (line: string) => void;
  env: Readonly<Record<string, string | undefined>>;
}

/** The CLI's command, run on a {@link MerchantPoolTarget} instead of the shop's orders. */
export interface MerchantCommand extends CommandText {
  positionals: 'many';
  positionalsMistake(given: readonly string[]): string | undefined;
  runOnPool(target: MerchantPoolTarget, values: Values, positionals: string[], io: MerchantIo): Promise<void>;
}

function localAnswer(env: MerchantIo['env']): string {
  const email = env.LOCAL_MERCHANT_EMAIL ?? LOCAL_MERCHANT_DEFAULTS.email;
  return [
    `The local stack has no user pool: npm start seeds its one merchant, ${email}, in its local sign-in.`,
    `Change it with LOCAL_MERCHANT_EMAIL and LOCAL_MERCHANT_PASSWORD (default ${LOCAL_MERCHANT_DEFAULTS.email} / ${LOCAL_MERCHANT_DEFAULTS.password}) before npm start.`,
  ].join('\n');
}

function shortDate(date: Date | undefined): string {
  return date === undefined ? '-' : date.toISOString().slice(0, 10);
}

export const merchantCommand: MerchantCommand = {
  summary: 'Who may sign in to the /admin page: add (Cognito emails the invitation), list, remove',
  usage: 'merchant add <email> | merchant list | merchant remove <email>',
  details: [
    'add: creates the user (email as user name) and adds them to the merchants group; Cognito',
    'emails a temporary password, changed (with an authenticator app set up for MFA) at first sign-in.',
    'An existing user is only added to the group. remove deletes a user of the merchants group.',
    'The local stack has one merchant, from LOCAL_MERCHANT_EMAIL and LOCAL_MERCHANT_PASSWORD.',
  ],
  positionals: 'many',
  positionalsMistake(given) {
    const [action, ...rest] = given;
    if (action === 'list') return rest.length === 0 ? undefined : 'list takes no email';
    if (action === 'add' || action === 'remove') {
      if (rest.length === 0) return `${action} needs the merchant's email`;
      if (rest.length > 1) return `${action} takes one email, not ${rest.length} (${rest.join(' ')})`;
      return undefined;
    }
    return action === undefined
      ? 'say add <email>, list or remove <email>'
      : `"${action}" is not add, list or remove`;
  },
  async runOnPool(target, _values, [action, email = ''], io) {
    if (target.kind === 'local') {
      if (action === 'list') {
        io.out(localAnswer(io.env));
        return;
      }
      throw new RefusedError(localAnswer(io.env));
    }
    if (action === 'add') {
      const result = await addMerchant(email, target.pool);
      io.out(
        result.invited
          ? `${result.email}: invited (Cognito emails a temporary password) and added to merchants.`
          : result.addedToGroup
            ? `${result.email}: already a user, not invited again; added to merchants.`
            : `${result.email}: already a merchant; nothing changed.`,
      );
      return;
    }
    if (action === 'remove') {
      const result = await removeMerchant(email, target.pool);
      io.out(
        `${result.email}: removed; they can no longer sign in or renew a sign-in (a token already issued lasts at most 30 minutes).`,
      );
      return;
    }
    const merchants = await listMerchants(target.pool);
    if (merchants.length === 0) {
      io.out('No merchants yet: npm run orders -- merchant add <email>');
      return;
    }
    const rows = merchants.map((m) => [
      m.email,
      m.status === 'invited'
        ? 'invited (temporary password not yet changed)'
        : m.status === 'active'
          ? 'active'
          : m.cognitoStatus,
      m.enabled ? 'yes' : 'no',
      shortDate(m.createdAt),
    ]);
    const header = ['EMAIL', 'STATUS', 'ENABLED', 'CREATED'];
    for (const line of alignColumns([header, ...rows])) io.out(line);
  },
};
