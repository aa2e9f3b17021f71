import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminListGroupsForUserCommand,
  CognitoIdentityProviderClient,
  ListUsersInGroupCommand,
  UserNotFoundException,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../ops/cli';

const cloudFormation = mockClient(CloudFormationClient);
const cognito = mockClient(CognitoIdentityProviderClient);

const STAGE = ['--stage', 'prod', '--region', 'eu-west-2'];

async function orders(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env,
    now: () => new Date('2026-11-25T10:00:00Z'),
    cwd: process.cwd(),
    isTerminal: false,
    ask: () => Promise.reject(new Error('no terminal')),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeEach(() => {
  cloudFormation.reset();
  cognito.reset();
  cloudFormation.on(DescribeStacksCommand).resolves({
    Stacks: [
      {
        StackName: 'LiveAquatics-prod',
        CreationTime: new Date('2026-11-01T00:00:00Z'),
        StackStatus: 'UPDATE_COMPLETE',
        Outputs: [
          { OutputKey: 'AdminUserPoolId', OutputValue: 'eu-west-2_Merchants1' },
          { OutputKey: 'SiteUrl', OutputValue: 'https://shop.example' },
        ],
      },
    ],
  });
});

describe('npm run orders -- merchant add', () => {
  it('creates the user with a verified email so Cognito emails the invitation, and adds them to merchants', async () => {
    cognito.on(AdminCreateUserCommand).resolves({});
    cognito.on(AdminAddUserToGroupCommand).resolves({});

    const run = await orders(['merchant', 'add', ' Daphne@Example.COM ', ...STAGE]);

    expect(run).toEqual({
      code: 0,
      out: 'daphne@example.com: invited (Cognito emails a temporary password) and added to merchants.',
      err: '[stage prod (stack LiveAquatics-prod, eu-west-2, user pool eu-west-2_Merchants1)]',
    });
    expect(cloudFormation.commandCalls(DescribeStacksCommand)[0]?.args[0].input).toEqual({
      StackName: 'LiveAquatics-prod',
    });
    expect(cognito.commandCalls(AdminCreateUserCommand).map((call) => call.args[0].input)).toEqual([
      {
        UserPoolId: 'eu-west-2_Merchants1',
        Username: 'daphne@example.com',
        UserAttributes: [
          { Name: 'email', Value: 'daphne@example.com' },
          { Name: 'email_verified', Value: 'true' },
        ],
        DesiredDeliveryMediums: ['EMAIL'],
      },
    ]);
    expect(cognito.commandCalls(AdminAddUserToGroupCommand).map((call) => call.args[0].input)).toEqual([
      { UserPoolId: 'eu-west-2_Merchants1', Username: 'daphne@example.com', GroupName: 'merchants' },
    ]);
  });

  it('adds an existing user outside the group to merchants without inviting them again, and says so', async () => {
    cognito
      .on(AdminCreateUserCommand)
      .rejects(new UsernameExistsException({ message: 'User account already exists', $metadata: {} }));
    cognito.on(AdminListGroupsForUserCommand).resolves({ Groups: [{ GroupName: 'packers' }] });
    cognito.on(AdminAddUserToGroupCommand).resolves({});

    const run = await orders(['merchant', 'add', 'daphne@example.com', ...STAGE]);

    expect(run.code).toBe(0);
    expect(run.out).toBe('daphne@example.com: already a user, not invited again; added to merchants.');
    expect(cognito.commandCalls(AdminAddUserToGroupCommand).map((call) => call.args[0].input)).toEqual([
      { UserPoolId: 'eu-west-2_Merchants1', Username: 'daphne@example.com', GroupName: 'merchants' },
    ]);
  });

  it('changes nothing for someone already a merchant', async () => {
    cognito
      .on(AdminCreateUserCommand)
      .rejects(new UsernameExistsException({ message: 'User account already exists', $metadata: {} }));
    cognito.on(AdminListGroupsForUserCommand).resolves({ Groups: [{ GroupName: 'merchants' }] });

    const run = await orders(['merchant', 'add', 'daphne@example.com', ...STAGE]);

    expect(run.code).toBe(0);
    expect(run.out).toBe('daphne@example.com: already a merchant; nothing changed.');
    expect(cognito.commandCalls(AdminAddUserToGroupCommand).map((call) => call.args[0].input)).toEqual([]);
  });

  it('refuses what is not an email address, before asking Cognito anything', async () => {
    const run = await orders(['merchant', 'add', 'daphne.example.com', ...STAGE]);

    expect(run.code).toBe(1);
    expect(run.err).toContain(
      'Refused: "daphne.example.com" is not an email address: merchants sign in with their email.',
    );
    expect(cognito.calls()).toEqual([]);
  });

  it('passes on what Cognito answers when the existing user is deleted before being added to the group', async () => {
    const gone = new UserNotFoundException({ message: 'User does not exist.', $metadata: {} });
    cognito
      .on(AdminCreateUserCommand)
      .rejects(new UsernameExistsException({ message: 'User account already exists', $metadata: {} }));
    cognito.on(AdminListGroupsForUserCommand).rejects(gone);
    cognito.on(AdminAddUserToGroupCommand).rejects(gone);

    await expect(orders(['merchant', 'add', 'daphne@example.com', ...STAGE])).rejects.toBe(gone);
  });

  it('passes on an error it does not expect', async () => {
    cognito.on(AdminCreateUserCommand).rejects(new Error('Rate exceeded'));

    await expect(orders(['merchant', 'add', 'daphne@example.com', ...STAGE])).rejects.toThrow(
      'Rate exceeded',
    );
  });
});

describe('npm run orders -- merchant list', () => {
  it('lists the merchants group by email, every page, with whether each has accepted the invitation', async () => {
    cognito
      .on(ListUsersInGroupCommand, { NextToken: undefined })
      .resolves({
        Users: [
          {
            Username: '6f1c2d3e-0000-4000-8000-000000000001',
            Attributes: [{ Name: 'email', Value: 'zoe@example.com' }],
            UserStatus: 'CONFIRMED',
            Enabled: true,
            UserCreateDate: new Date('2026-11-20T09:00:00Z'),
          },
        ],
        NextToken: 'page-2',
      })
      .on(ListUsersInGroupCommand, { NextToken: 'page-2' })
      .resolves({
        Users: [
          {
            Username: '6f1c2d3e-0000-4000-8000-000000000002',
            Attributes: [{ Name: 'email', Value: 'daphne@example.com' }],
            UserStatus: 'FORCE_CHANGE_PASSWORD',
            Enabled: false,
            UserCreateDate: new Date('2026-11-24T15:30:00Z'),
          },
        ],
      });

    const run = await orders(['merchant', 'list', ...STAGE]);

    expect(run.code).toBe(0);
    expect(run.out).toBe(
      [
        'EMAIL               STATUS                                        ENABLED  CREATED',
        'daphne@example.com  invited (temporary password not yet changed)  no       2026-11-24',
        'zoe@example.com     active                                        yes      2026-11-20',
      ].join('\n'),
    );
    // Two requests: daphne is only answered to the one carrying page 1's token. (The SDK's paginator
    // reuses one input object, so the recorded inputs all show the last token.)
    expect(cognito.commandCalls(ListUsersInGroupCommand)).toHaveLength(2);
    expect(cognito.commandCalls(ListUsersInGroupCommand)[0]?.args[0].input).toMatchObject({
      UserPoolId: 'eu-west-2_Merchants1',
      GroupName: 'merchants',
    });
  });

  it('shows the email whichever attribute comes first, the user name when there is none, and any other status by its Cognito name', async () => {
    cognito.on(ListUsersInGroupCommand).resolves({
      Users: [
        {
          Username: '6f1c2d3e-0000-4000-8000-000000000003',
          Attributes: [
            { Name: 'sub', Value: '6f1c2d3e-0000-4000-8000-000000000003' },
            { Name: 'email', Value: 'ada@example.com' },
          ],
          UserStatus: 'RESET_REQUIRED',
          Enabled: true,
          UserCreateDate: new Date('2026-11-21T08:00:00Z'),
        },
        // Cognito's answer may leave out any of these fields: the user name stands for the
        // email, a missing status is UNKNOWN, and a user is enabled unless it says otherwise.
        { Username: 'bea@example.com' },
        {
          Username: 'cat@example.com',
          Attributes: [{ Name: 'sub', Value: '6f1c2d3e-0000-4000-8000-000000000004' }],
          UserStatus: 'CONFIRMED',
        },
      ],
    });

    const run = await orders(['merchant', 'list', ...STAGE]);

    expect(run.out).toBe(
      [
        'EMAIL            STATUS          ENABLED  CREATED',
        'ada@example.com  RESET_REQUIRED  yes      2026-11-21',
        'bea@example.com  UNKNOWN         yes      -',
        'cat@example.com  active          yes      -',
      ].join('\n'),
    );
  });

  it.each([{ Users: [] }, {}])(
    'says how to add the first merchant when there is none (Cognito answers %j)',
    async (page) => {
      cognito.on(ListUsersInGroupCommand).resolves(page);

      const run = await orders(['merchant', 'list', ...STAGE]);

      expect(run.out).toBe('No merchants yet: npm run orders -- merchant add <email>');
    },
  );
});

describe('npm run orders -- merchant remove', () => {
  it('deletes a member of the merchants group', async () => {
    cognito.on(AdminListGroupsForUserCommand).resolves({ Groups: [{ GroupName: 'merchants' }] });
    cognito.on(AdminDeleteUserCommand).resolves({});

    const run = await orders(['merchant', 'remove', 'Daphne@example.com', ...STAGE]);

    expect(run.code).toBe(0);
    expect(run.out).toBe(
      'daphne@example.com: removed; they can no longer sign in or renew a sign-in (a token already issued lasts at most 30 minutes).',
    );
    expect(cognito.commandCalls(AdminDeleteUserCommand).map((call) => call.args[0].input)).toEqual([
      { UserPoolId: 'eu-west-2_Merchants1', Username: 'daphne@example.com' },
    ]);
  });

  it("finds the merchants group on a later page of the user's groups", async () => {
    cognito
      .on(AdminListGroupsForUserCommand, { NextToken: undefined })
      .resolves({ Groups: [{ GroupName: 'packers' }], NextToken: 'page-2' })
      .on(AdminListGroupsForUserCommand, { NextToken: 'page-2' })
      .resolves({ Groups: [{ GroupName: 'merchants' }] });
    cognito.on(AdminDeleteUserCommand).resolves({});

    const run = await orders(['merchant', 'remove', 'daphne@example.com', ...STAGE]);

    expect(run.code).toBe(0);
    expect(cognito.commandCalls(AdminDeleteUserCommand).map((call) => call.args[0].input)).toEqual([
      { UserPoolId: 'eu-west-2_Merchants1', Username: 'daphne@example.com' },
    ]);
  });

  it('passes on an error other than "no such user" from reading the groups, and deletes nobody', async () => {
    cognito.on(AdminListGroupsForUserCommand).rejects(new Error('Rate exceeded'));

    await expect(orders(['merchant', 'remove', 'daphne@example.com', ...STAGE])).rejects.toThrow(
      'Rate exceeded',
    );
    expect(cognito.commandCalls(AdminDeleteUserCommand)).toEqual([]);
  });

  it('deletes nobody outside the merchants group', async () => {
    cognito.on(AdminListGroupsForUserCommand).resolves({ Groups: [] });

    const run = await orders(['merchant', 'remove', 'daphne@example.com', ...STAGE]);

    expect(run.code).toBe(1);
    expect(run.err).toContain('Refused: daphne@example.com is not in the merchants group: not removed.');
    expect(cognito.commandCalls(AdminDeleteUserCommand).map((call) => call.args[0].input)).toEqual([]);
  });

  it('says when there is no such user', async () => {
    cognito
      .on(AdminListGroupsForUserCommand)
      .rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));

    const run = await orders(['merchant', 'remove', 'nobody@example.com', ...STAGE]);

    expect(run.code).toBe(1);
    expect(run.err).toContain("Refused: No user nobody@example.com in the merchants' user pool.");
    expect(cognito.commandCalls(AdminDeleteUserCommand).map((call) => call.args[0].input)).toEqual([]);
  });
});

describe('npm run orders -- merchant, where and how', () => {
  it('answers --local list with the seeded merchant and the variables that set it', async () => {
    const run = await orders(['merchant', 'list', '--local'], { LOCAL_MERCHANT_EMAIL: 'me@shop.test' });

    expect(run.code).toBe(0);
    expect(run.out).toBe(
      [
        'The local stack has no user pool: npm start seeds its one merchant, me@shop.test, in its local sign-in.',
        'Change it with LOCAL_MERCHANT_EMAIL and LOCAL_MERCHANT_PASSWORD (default merchant@live-aquatics.test / Daphnia-Local-2026) before npm start.',
      ].join('\n'),
    );
    expect(run.err).toBe('[local stack (its merchant is seeded by npm start)]');
    expect(cloudFormation.calls()).toEqual([]);
  });

  it('refuses --local add, saying the same', async () => {
    const run = await orders(['merchant', 'add', 'daphne@example.com', '--local']);

    expect(run.code).toBe(1);
    expect(run.err).toContain(
      'Refused: The local stack has no user pool: npm start seeds its one merchant, merchant@live-aquatics.test, in its local sign-in.',
    );
    expect(cognito.calls()).toEqual([]);
  });

  it('refuses a stage that has no stack, naming it and the region', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({ Stacks: [] });

    const run = await orders(['merchant', 'list', ...STAGE]);

    expect(run.code).toBe(1);
    expect(run.err).toBe(
      'Refused: No stack LiveAquatics-prod in eu-west-2 for these credentials: check --stage (and AWS_REGION / --region).',
    );
  });

  it('refuses a stage whose stack has no user pool output yet', async () => {
    cloudFormation.on(DescribeStacksCommand).resolves({
      Stacks: [
        {
          StackName: 'LiveAquatics-prod',
          CreationTime: new Date('2026-11-01T10:00:00Z'),
          StackStatus: 'UPDATE_COMPLETE',
          Outputs: [{ OutputKey: 'OrdersTableName', OutputValue: 'orders' }],
        },
      ],
    });

    const run = await orders(['merchant', 'list', ...STAGE]);

    expect(run.code).toBe(1);
    expect(run.err).toBe(
      'Refused: Stack LiveAquatics-prod has no output AdminUserPoolId: deploy the current version first.',
    );
  });

  it.each([
    [[], 'merchant: say add <email>, list or remove <email>'],
    [['invite', 'a@b.test'], 'merchant: "invite" is not add, list or remove'],
    [['add'], "merchant: add needs the merchant's email"],
    [['remove', 'a@b.test', 'c@d.test'], 'merchant: remove takes one email, not 2 (a@b.test c@d.test)'],
    [['list', 'a@b.test'], 'merchant: list takes no email'],
  ])('says what is mistyped in merchant %j, with the usage', async (words, mistake) => {
    const run = await orders(['merchant', ...words, ...STAGE]);

    expect(run.code).toBe(2);
    expect(run.err.split('\n')).toEqual([
      mistake,
      'Usage: npm run orders -- merchant add <email> | merchant list | merchant remove <email> [--local | --stage NAME]',
      '(`npm run orders -- merchant --help` says more.)',
    ]);
    expect(cloudFormation.calls()).toEqual([]);
  });
});
