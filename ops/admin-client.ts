import { randomUUID } from 'node:crypto';
import * as core from '../shared/admin-client-core';
import type { AdminJsonRouteName } from '../shared/admin-routes';
import { RefusedError } from '../shared/refusal';

/** The sign-in has ended (none kept, refused by the API, or its refresh refused): run login. */
export class SignedOutError extends Error {}

/** The admin API's schema refused a value the command was given (400): a typing mistake. */
export class InvalidInputError extends Error {}

/** The admin API could not be reached or did not answer usably; the message says what to do. */
export class AdminUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options);
    this.status = options?.status;
  }
  readonly status: number | undefined;
}

export interface AdminTransport {
  /** The site's origin: the admin API is beneath it (through CloudFront on a stage). */
  origin: string;
  idToken(): Promise<string>;
  /** The merchant's email, for a 403's message. */
  email: string | undefined;
  fetch: typeof fetch;
}

const UNANSWERED =
  'The admin API did not answer, so the change may or may not have been made: look with list or find, then run the command again (nothing is done twice).';

/**
 * Each action carries its own intention key (the run's, numbered per route), so a request left
 * unanswered is sent once more and the API acts once; running the command again is a new intention.
 */
export function createAdminClient(transport: AdminTransport) {
  const line = async () => ({ ...transport, token: await transport.idToken() });
  const run = randomUUID();
  const actionsSent = new Map<AdminJsonRouteName, number>();
  const intentionKey = (name: AdminJsonRouteName) => {
    const n = (actionsSent.get(name) ?? 0) + 1;
    actionsSent.set(name, n);
    return `${run}-${name}-${n}`;
  };

  function stopped(stop: core.AdminStop): never {
    if (stop.kind === 'signedOut') throw new SignedOutError('The admin API refused the sign-in.');
    if (stop.kind === 'notThroughSite')
      throw new AdminUnavailableError(
        "The admin API refused a request that did not come through the shop's address: check the site address (npm run doctor).",
      );
    throw new RefusedError(
      `${transport.email ?? 'This account'} is not a merchant of this shop: sign in as one (login), or ask the operator to run merchant add.`,
    );
  }

  async function call(name: AdminJsonRouteName, input: unknown): Promise<unknown> {
    const action = core.isAdminAction(name);
    const options = action ? { idempotencyKey: intentionKey(name) } : {};
    const send = async () => core.callAdmin(await line(), name, input, options);
    let reply: core.AdminReply;
    try {
      // Without an answer an action may or may not have been done: its repeat under the same key is safe.
      reply = await send().catch((error: unknown) => {
        if (!action || error instanceof SignedOutError) throw error;
        return send();
      });
    } catch (error) {
      if (error instanceof SignedOutError || error instanceof AdminUnavailableError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new AdminUnavailableError(
        action
          ? `${UNANSWERED} (${reason})`
          : `The admin API at ${transport.origin} could not be reached (${reason}).`,
        { cause: error },
      );
    }
    if (reply.kind === 'value') return reply.value;
    if (reply.kind === 'unreadable')
      throw new AdminUnavailableError(
        action ? UNANSWERED : 'The admin API answered something this CLI cannot read: update it.',
      );
    if (reply.kind !== 'error') return stopped(reply);
    const { status, error } = reply;
    // A 409 with results (a dispatch where every order was refused) is read by its caller.
    if (status === 409 && name === 'dispatch' && reply.answer !== undefined) return reply.answer;
    if (error && status === 400) throw new InvalidInputError(error.error);
    if (error && (status === 404 || status === 409)) throw new RefusedError(error.error);
    throw new AdminUnavailableError(
      status >= 500 && action
        ? `${UNANSWERED} (HTTP ${status})`
        : `The admin API answered HTTP ${status}${error ? `: ${error.error}` : ''}.`,
      { status },
    );
  }

  async function file(kind: 'dispatchCsv' | 'packingSlips', date: string | undefined): Promise<string> {
    const sent = await core.fetchAdminFile(await line(), kind, date);
    if (sent.kind === 'response') return sent.response.text();
    if (sent.kind !== 'error') return stopped(sent);
    if (sent.error && sent.status < 500) throw new RefusedError(sent.error.error);
    throw new AdminUnavailableError(`The admin API answered HTTP ${sent.status}.`);
  }

  return { ...core.adminCalls(call), file };
}

export type AdminClient = ReturnType<typeof createAdminClient>;
