import { useEffect, useMemo, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import type { AdminConfig } from '../../../../shared/admin-config';
import { useAppConfig } from '../../lib/app-context';
import { useHydrated } from '../../lib/use-hydrated';
import stylesheet from './admin.css?url';
import { type AdminApi, createAdminApi } from './admin-api';
import { AdminSession, OFFLINE_TOKENS, resumeSession } from './admin-session';
import { ADMIN_WORKER, useAdminWorker } from './notifications';
import { OrderView } from './order-view';
import { OrdersView } from './orders-view';
import { ShopView } from './shop-view';
import {
  type AdminTokens,
  finishSignIn,
  loadAdminConfig,
  type SignInCallback,
  signOutUrl,
  startSignIn,
} from './sign-in';
import { StandingOrdersView } from './standing-orders-view';
import { useAdminParams } from './use-admin-params';
import { WeekView } from './week-view';

type PageState =
  | { kind: 'loading' }
  | { kind: 'unavailable' }
  | { kind: 'signed-out'; config: AdminConfig; message: string | undefined }
  | { kind: 'signed-in'; config: AdminConfig; session: AdminSession; api: AdminApi }
  | { kind: 'not-merchant'; config: AdminConfig; session: AdminSession; message: string };

// Module-level so React's development double effects (StrictMode) read the config once and
// exchange a code once: a code is single use, and a second exchange would fail the sign-in.
let configLoad: Promise<AdminConfig | undefined> | undefined;
let callback: { code: string; result: Promise<SignInCallback> } | undefined;

/** The views of the admin, by `?view=`; `?order=` opens an order or request. */
export const ADMIN_VIEWS = {
  week: 'This week',
  orders: 'Orders & requests',
  standing: 'Standing orders',
  shop: 'Shop & capacity',
} as const;
export type AdminView = keyof typeof ADMIN_VIEWS;

function viewOf(value: string | null): AdminView {
  return value === 'orders' || value === 'shop' || value === 'standing' ? value : 'week';
}

/** Where the admin page stands: back from the identity provider it finishes the sign-in, else resumes. */
function useAdminPageState(origin: string): PageState {
  const [state, setState] = useState<PageState>({ kind: 'loading' });
  const params = useAdminParams();
  const navigate = useNavigate();
  const code = params.get('code');
  const signInError = params.get('error');
  const returning = code !== null || signInError !== null;

  useEffect(() => {
    if (state.kind !== 'loading') return;
    let active = true;
    configLoad ??= loadAdminConfig(origin);
    void (async () => {
      const config = await configLoad;
      if (!active) return;
      if (config === undefined) {
        configLoad = undefined;
        setState({ kind: 'unavailable' });
        return;
      }
      const signIn = (tokens: AdminTokens) => {
        const session = new AdminSession(origin, tokens, (message) =>
          setState({ kind: 'signed-out', config, message }),
        );
        const api = createAdminApi(origin, session, (message) =>
          setState({ kind: 'not-merchant', config, session, message }),
        );
        setState({ kind: 'signed-in', config, session, api });
      };
      if (!returning) {
        // A reload, a new tab, a link from an email: the cookie's session, if it still lasts.
        const resumed = await resumeSession(origin);
        if (!active) return;
        if (resumed.kind === 'signed-in') signIn(resumed.tokens);
        // Offline (the refresh POST failed): the service worker's copy of the week, marked as such.
        else if (resumed.kind === 'offline') signIn(OFFLINE_TOKENS);
        else setState({ kind: 'signed-out', config, message: undefined });
        return;
      }
      const key = code ?? signInError ?? '';
      if (callback?.code !== key) {
        callback = { code: key, result: finishSignIn(origin, params) };
      }
      const result = await callback.result;
      if (!active) return;
      if (result.kind === 'failed') {
        navigate('/admin', { replace: true });
        setState({ kind: 'signed-out', config, message: result.message });
        return;
      }
      signIn(result.tokens);
      navigate(result.returnTo, { replace: true });
    })();
    return () => {
      active = false;
    };
  }, [state.kind, returning, code, signInError, origin, navigate, params]);

  return state;
}

/** `/admin`, behind sign-in; its stylesheet is its own so the shop's pages carry none of it. */
export function AdminPage() {
  // The site's own origin (the page's): the API, the config and the sign-in's return address.
  const origin = useAppConfig().apiOrigin;
  const state = useAdminPageState(origin);
  const hydrated = useHydrated();

  useAdminWorker();

  return (
    <div className="admin">
      {/* Linked once in the browser: the build's prerender is a separate build with its own asset names.
          The URL is empty only outside the build (tests), where a link would point at the page. */}
      {hydrated && stylesheet !== '' && <link rel="stylesheet" href={stylesheet} precedence="default" />}
      <title>Admin · Live Aquatics</title>
      {state.kind === 'loading' && (
        <p className="loading" role="status">
          Loading the admin…
        </p>
      )}
      {state.kind === 'unavailable' && (
        <section className="card">
          <h1>Admin</h1>
          <p role="alert">The admin's sign-in settings could not be loaded. Please reload the page.</p>
        </section>
      )}
      {state.kind === 'signed-out' && (
        <SignInView config={state.config} origin={origin} message={state.message} />
      )}
      {state.kind === 'signed-in' && (
        <SignedIn config={state.config} origin={origin} session={state.session} api={state.api} />
      )}
      {state.kind === 'not-merchant' && (
        <NotMerchantView
          config={state.config}
          origin={origin}
          session={state.session}
          message={state.message}
        />
      )}
    </div>
  );
}

function SignInView({
  config,
  origin,
  message,
}: {
  config: AdminConfig;
  origin: string;
  message: string | undefined;
}) {
  const [pending, setPending] = useState(false);
  const location = useLocation();
  const signIn = async () => {
    if (pending) return;
    setPending(true);
    const returnTo = `${location.pathname}${location.search}`;
    window.location.assign(await startSignIn(config, origin, returnTo));
  };
  return (
    <section className="card admin-sign-in">
      <h1>Merchant sign-in</h1>
      <p>Sign in to see this week's orders, dispatch them, and answer requests.</p>
      {message !== undefined && (
        <p className="admin-report admin-report--failed" role="alert">
          {message}
        </p>
      )}
      <button
        type="button"
        className="button button--primary button--block"
        disabled={pending}
        onClick={signIn}
      >
        Sign in
      </button>
    </section>
  );
}

/** Who is signed in, and where the sign-out sends them. */
interface Account {
  config: AdminConfig;
  origin: string;
  session: AdminSession;
}

/** Signed in as a non-merchant (403): retrying cannot help, so it says who can let the account in. */
function NotMerchantView({ message, ...account }: Account & { message: string }) {
  return (
    <section className="card admin-sign-in">
      <h1>Not a merchant account</h1>
      <p className="admin-report admin-report--failed" role="alert">
        {message}
      </p>
      <SignOutButton {...account} className="button button--primary button--block" />
    </section>
  );
}

/**
 * Revokes the refresh token and clears its cookie (else it renews the session for 30 days), then the
 * provider's logout ends its own session. `everywhere`: every device's.
 */
function SignOutButton({
  config,
  origin,
  session,
  className,
  everywhere = false,
}: Account & { className: string; everywhere?: boolean }) {
  const signOut = async () => {
    await session.signOut(everywhere);
    // The worker's copies of the week go with the session.
    if ('caches' in window) await caches.delete(ADMIN_WORKER.cache).catch(() => false);
    window.location.assign(signOutUrl(config, origin));
  };
  return (
    <button type="button" className={className} onClick={() => void signOut()}>
      {everywhere ? 'Sign out on every device' : 'Sign out'}
    </button>
  );
}

function SignedIn({ api, ...account }: Account & { api: AdminApi }) {
  const params = useAdminParams();
  const view = viewOf(params.get('view'));
  const reference = params.get('order');
  const content = useMemo(() => {
    if (reference !== null) return <OrderView key={reference} api={api} reference={reference} />;
    if (view === 'orders') return <OrdersView api={api} />;
    if (view === 'shop') return <ShopView api={api} />;
    if (view === 'standing') return <StandingOrdersView api={api} />;
    return <WeekView api={api} />;
  }, [api, reference, view]);
  return (
    <>
      <header className="admin-bar">
        <nav aria-label="Admin">
          <ul className="admin-nav">
            {Object.entries(ADMIN_VIEWS).map(([key, label]) => (
              <li key={key}>
                <Link
                  to={key === 'week' ? '/admin' : `/admin?view=${key}`}
                  aria-current={reference === null && view === key ? 'page' : undefined}
                >
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="admin-account">
          {account.session.email !== undefined && (
            <span className="admin-account__email" title={account.session.email}>
              {account.session.email}
            </span>
          )}
          <SignOutButton {...account} className="button button--secondary" />
        </div>
      </header>
      {content}
      <section className="card admin-devices" aria-labelledby="admin-devices">
        <h2 id="admin-devices">Your devices</h2>
        <p>
          This device stays signed in for 30 days. Lost a phone, or signed in somewhere you should not have?
          Sign out on every device.
        </p>
        <SignOutButton {...account} everywhere className="button button--secondary" />
      </section>
    </>
  );
}
