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

export interface MerchantPool {
  client: CognitoIdentityProviderClient;
  userPoolId: string;
}

export interface MerchantAccount {
  email: string;
  /** `invited`: has not yet changed the temporary password of the invitation; `active`: has. */
  status: 'invited' | 'active' | 'other';
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

/** Cognito emails a new user a temporary password; an existing one is not invited again, only grouped. */
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

export async function listMerchants(pool: MerchantPool): Promise<MerchantAccount[]> {
  const accounts: MerchantAccount[] = [];
  const pages = paginateListUsersInGroup(
    { client: pool.client },
    { UserPoolId: pool.userPoolId, GroupName: MERCHANTS_GROUP },
  );
  for await (const page of pages) accounts.push(...(page.Users ?? []).map(accountOf));
  return accounts.sort((a, b) => a.email.localeCompare(b.email));
}

/** Only a member of `merchants` is deleted, so a typo cannot remove some other user. */
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
