import { z } from 'zod';
import { type Assembly, resourcesOfType } from './assembly';

/** The user pool's app client and groups as the template declares them, on this machine's addresses. */
export interface AppClient {
  clientId: string;
  callbackUrls: string[];
  logoutUrls: string[];
  scopes: string[];
  flows: string[];
  refreshTokens: boolean;
  /** The user pool's groups (the merchants'): the rehearsal's merchant is put in each. */
  groups: string[];
}

const clientSchema = z.object({
  AllowedOAuthFlows: z.array(z.string()).default([]),
  AllowedOAuthScopes: z.array(z.string()).default([]),
  CallbackURLs: z.array(z.string()).default([]),
  LogoutURLs: z.array(z.string()).default([]),
  ExplicitAuthFlows: z.array(z.string()).default([]),
});

/**
 * The app client the admin page signs in with, read from the template: the identity stand-in
 * allows what it allows and nothing else, so a scope, flow or callback URL the template loses
 * fails the sign-in here first. `siteUrl` is what the distribution's https address is here.
 */
export function readAppClient(assembly: Assembly, siteUrl: string): AppClient {
  const app = assembly.app.name;
  const [client] = resourcesOfType(assembly, 'AWS::Cognito::UserPoolClient');
  if (!client) throw new Error(`No AWS::Cognito::UserPoolClient in ${app}`);
  const props = clientSchema.parse(assembly.resolve(app, client[1].Properties));
  const local = (address: string) => address.replace('https://{{rehearsal:site-domain}}', siteUrl);
  return {
    clientId: assembly.resolveString(app, { Ref: client[0] }),
    callbackUrls: props.CallbackURLs.map(local),
    logoutUrls: props.LogoutURLs.map(local),
    scopes: props.AllowedOAuthScopes,
    flows: props.AllowedOAuthFlows,
    // Cognito's default when ExplicitAuthFlows is unset includes refresh; set, it is what it lists.
    refreshTokens:
      props.ExplicitAuthFlows.length === 0 || props.ExplicitAuthFlows.includes('ALLOW_REFRESH_TOKEN_AUTH'),
    groups: resourcesOfType(assembly, 'AWS::Cognito::UserPoolGroup').map(([, group]) =>
      assembly.resolveString(app, group.Properties.GroupName),
    ),
  };
}
