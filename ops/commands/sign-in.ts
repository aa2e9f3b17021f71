import { login, logout } from '../sign-in';
import type { SignInCommand } from './command';

/* `login` and `logout`: the merchant's sign-in on the chosen target (ops/sign-in.ts does the work). */

export const loginCommand: SignInCommand = {
  summary: 'Sign in as a merchant (in your browser); later commands act as you',
  usage: 'login',
  details: [
    'Prints the sign-in address and opens it when a browser is at hand; the sign-in comes back to this',
    'machine (http://localhost:47815/callback, or the next port). Over SSH, paste back the address the',
    'browser ended on when asked, or forward the port first: ssh -L 47815:localhost:47815 <server>.',
    'The tokens are kept, for this target only, in ~/.config/live-aquatics-orders (or $XDG_CONFIG_HOME),',
    'readable by you alone, and renewed.',
    "On a stage, the site is found from ORDERS_SITE_URL, the stage's domainName in cdk.json, or its stack.",
  ],
  positionals: 'none',
  runSignIn: (target, io) => login(target, io),
};

export const logoutCommand: SignInCommand = {
  summary: 'Sign out: the sign-in is revoked and forgotten',
  usage: 'logout',
  details: [],
  positionals: 'none',
  runSignIn: (target, io) => logout(target, io),
};
