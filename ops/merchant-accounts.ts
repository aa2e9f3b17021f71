import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  type CognitoIdentityProviderClient,
  paginateAdminListGroupsForUser,
  paginateListUsersInGroup,
  UserNotFoundException,
  UsernameExistsException,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import * as z from 'zod/mini';
import { MERCHANTS_GROUP } from '../shared/admin-api-paths';
import { RefusedError } from '../shared/refusal';

/** The merchants' user pool of one stage, and a client allowed to administer it. */
export interface MerchantPool {
  client: CognitoIdentityProviderClient;
  userPoolId: string;
}

/** One merchant as `merchant list` shows them. */
export interface MerchantAccount {
  email: string;
  /** `invited`: has not yet changed the temporary password of the invitation; `active`: has. */
  status: 'invited' | 'active' | 'other';
  /** Cognito's own status, for anything that is neither. */
  cognitoStatus: string;
  enabled: boolean;
  createdAt: Date | undefined;
}

const emailSchema = z.email();

/** The email as the pool keys it (sign-in is case-insensitive), or a refusal naming what was typed. */
function merchantEmail(typed: string): string {
  const email = typed.trim().toLowerCase();
  if (!emailSchema.safeParse(email).success) {
    throw new RefusedError(`"${typed}" is not an email address: merchants sign in with their email.`);
  }
  return email;
}

/** The groups of a user, or undefined when the pool has no such user. */
async function groupsOf(email: string, pool: MerchantPool): Promise<string[] | undefined> {
  const groups: string[] = [];
  try {
    const pages = paginateAdminListGroupsForUser(
      { client: pool.client },
      { UserPoolId: pool.userPoolId, Username: email },
    );
    for await (const page of pages) {
      for (const group of page.Groups ?? []) if (group.GroupName) groups.push(group.GroupName);
    }
  } catch (error) {
    if (error instanceof UserNotFoundException) return undefined;
    throw error;
  }
  return groups;
}

/**
 * Makes `email` a merchant: creates the user (the email is the user name, marked verified) so
 * Cognito emails the invitation with a temporary password, then adds them to `merchants`.
 * Idempotent: an existing user is not invited again, only added to the group if not in it.
 * @returns whether a user was created (invited) and whether the group changed.
 * @throws RefusedError when `email` is not an email address.
 */
export async function addMerchant(
  typedEmail: string,
  pool: MerchantPool,
): Promise<{ email: string; invited: boolean; addedToGroup: boolean }> {
  const email = merchantEmail(typedEmail);
  let invited = true;
  try {
    await pool.client.send(
      new AdminCreateUserCommand({
        UserPoolId: pool.userPoolId,
        Username: email,
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'email_verified', Value: 'true' },
        ],
        DesiredDeliveryMediums: ['EMAIL'],
      }),
    );
  } catch (error) {
    if (!(error instanceof UsernameExistsException)) throw error;
    invited = false;
  }
  const groups = invited ? [] : await groupsOf(email, pool);
  if (groups?.includes(MERCHANTS_GROUP)) return { email, invited, addedToGroup: false };
  await pool.client.send(
    new AdminAddUserToGroupCommand({
      UserPoolId: pool.userPoolId,
      Username: email,
      GroupName: MERCHANTS_GROUP,
    }),
  );
  return { email, invited, addedToGroup: true };
}

function accountOf(user: UserType): MerchantAccount {
  const email =
    user.Attributes?.find((attribute) => attribute.Name === 'email')?.Value ?? user.Username ?? '';
  const cognitoStatus = user.UserStatus ?? 'UNKNOWN';
  return {
    email,
    status:
      cognitoStatus === 'FORCE_CHANGE_PASSWORD'
        ? 'invited'
        : cognitoStatus === 'CONFIRMED'
          ? 'active'
          : 'other',
    cognitoStatus,
    enabled: user.Enabled ?? true,
    createdAt: user.UserCreateDate,
  };
}

/** Everyone in the `merchants` group, by email. */
export async function listMerchants(pool: MerchantPool): Promise<MerchantAccount[]> {
  const accounts: MerchantAccount[] = [];
  const pages = paginateListUsersInGroup(
    { client: pool.client },
    { UserPoolId: pool.userPoolId, GroupName: MERCHANTS_GROUP },
  );
  for await (const page of pages) accounts.push(...(page.Users ?? []).map(accountOf));
  return accounts.sort((a, b) => a.email.localeCompare(b.email));
}

/**
 * Deletes the merchant `email` from the user pool: they can no longer sign in or renew their
 * tokens. Only a member of `merchants` is deleted, so a typo cannot remove some other user.
 * @throws RefusedError when there is no such user, or the user is not a merchant.
 */
export async function removeMerchant(typedEmail: string, pool: MerchantPool): Promise<{ email: string }> {
  const email = merchantEmail(typedEmail);
  const groups = await groupsOf(email, pool);
  if (groups === undefined) throw new RefusedError(`No user ${email} in the merchants' user pool.`);
  if (!groups.includes(MERCHANTS_GROUP)) {
    throw new RefusedError(`${email} is not in the ${MERCHANTS_GROUP} group: not removed.`);
  }
  await pool.client.send(new AdminDeleteUserCommand({ UserPoolId: pool.userPoolId, Username: email }));
  return { email };
}
