import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type {
  AdminAtRiskMove,
  AdminOrderWeather,
  AdminRecordView,
  AdminStatusResponse,
  AdminWeatherResponse,
} from '../../../../shared/admin-responses';
import { describeClosedDay } from '../../../../shared/closed-day';
import { describeOverLimit } from '../../../../shared/over-limit';
import type { AdminApi } from './admin-api';
import { bottlesText, formatDay } from './admin-format';
import { AdminField, Detail, type Loadable, Loaded, ReasonField } from './admin-ui';
import { ConfirmedAction } from './confirmed-action';
import { RecordList } from './record-list';
import { type AdminAction, useAdminAction } from './use-admin-action';

/** This week: the next dispatch day, its files, orders to dispatch, a delay, and later days with orders. */
export function WeekView({ api }: { api: AdminApi }) {
  const [loaded, setLoaded] =
    useState<Loadable<{ status: AdminStatusResponse; records: AdminRecordView[] }>>(undefined);
  // Set when the week came from the service worker's copy (offline): when that copy was saved.
  const [offlineCopy, setOfflineCopy] = useState<string | undefined>(undefined);
  // Kept here, above the reloads: the bulk dispatch's result stays once its orders leave the list.
  const dispatchAction = useAdminAction();

  const load = useCallback(async () => {
    const status = await api.status();
    if (!status.ok) return setLoaded({ failed: status.message });
    const list = await api.list({ dispatch: status.value.next.date, status: 'paid' });
    setOfflineCopy(api.offlineCopy());
    setLoaded(list.ok ? { status: status.value, records: list.value.records } : { failed: list.message });
  }, [api]);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section className="admin-view" aria-labelledby="admin-week-heading">
      <h1 id="admin-week-heading">This week</h1>
      {offlineCopy !== undefined && (
        <p className="admin-report" role="status">
          Offline: showing the week as of {formatSavedAt(offlineCopy)}
        </p>
      )}
      <Loaded loaded={loaded}>
        {({ status, records }) => (
          <WeekContent
            api={api}
            status={status}
            records={records}
            reload={load}
            dispatchAction={dispatchAction}
          />
        )}
      </Loaded>
    </section>
  );
}

/** A copy's saving time as the merchant reads it, in the shop's time zone: "Monday 7 December at 00:52". */
function formatSavedAt(iso: string): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return 'an earlier visit';
  return time.toLocaleString('en-GB', {
    timeZone: 'Europe/London',
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    hour: '2-digit',
    minute: '2-digit',
  });
}

function WeekContent({
  api,
  status,
  records,
  reload,
  dispatchAction,
}: {
  api: AdminApi;
  status: AdminStatusResponse;
  records: AdminRecordView[];
  reload: () => void;
  dispatchAction: AdminAction;
}) {
  const { next, shop } = status;
  const day = formatDay(next.date);
  return (
    <>
      {shop.mode !== 'open' && (
        <p className="admin-notice">
          The shop is {shop.mode === 'paused' ? 'paused' : 'taking order requests'}
          {shop.message ? `: “${shop.message}”` : '.'} <Link to="/admin?view=shop">Change</Link>
        </p>
      )}
      {status.overdue.length > 0 && (
        <p className="admin-notice" role="alert">
          Not yet dispatched from earlier days:{' '}
          {status.overdue.map((overdue) => `${formatDay(overdue.date)} (${overdue.orders})`).join(', ')}.
        </p>
      )}
      <div className="card">
        <h2>Next dispatch: {day}</h2>
        <dl className="admin-facts">
          <Detail label="Orders">{next.orders}</Detail>
          <Detail label="Bottles">{next.bottles}</Detail>
          <Detail label="Capacity left">
            {next.left === null ? 'No limit' : `${bottlesText(next.left)} of ${next.capacity}`}
          </Detail>
          <StandingDetail bottles={next.standing} />
        </dl>
        {status.requestsWaiting > 0 && (
          <p>
            <Link to="/admin?view=orders&status=requested">
              {status.requestsWaiting} order{' '}
              {status.requestsWaiting === 1 ? 'request waits' : 'requests wait'} for an answer
            </Link>
          </p>
        )}
        <DayFiles api={api} date={next.date} />
      </div>
      <WeatherCard api={api} onDelayed={reload} />
      <div className="card">
        <h2>To dispatch on {day}</h2>
        <RecordList
          api={api}
          records={records}
          onChanged={reload}
          label={`Orders for ${day}`}
          action={dispatchAction}
        />
      </div>
      <DelayDay api={api} from={next.date} orders={next.orders} onDone={reload} />
      {status.later.length > 0 && (
        // Days a delay moved orders to (a Tuesday), and later weeks' orders: never hidden.
        <section className="card" aria-labelledby="admin-later-heading">
          <h2 id="admin-later-heading">Later days with orders</h2>
          <ul>
            {status.later.map((later) => (
              <li key={later.date}>
                <Link to={`/admin?view=orders&status=paid&dispatch=${later.date}`}>
                  {formatDay(later.date)}
                </Link>
                : {later.orders} {later.orders === 1 ? 'order' : 'orders'}, {bottlesText(later.bottles)}
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** The day's packing slips and Click & Drop file, fetched with the token a plain link cannot carry. */
function DayFiles({ api, date }: { api: AdminApi; date: string }) {
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [pending, setPending] = useState(false);
  const open = async (kind: 'dispatchCsv' | 'packingSlips') => {
    if (pending) return;
    setPending(true);
    // Opened inside the click, so the browser lets it through; filled once the file is here.
    const tab = kind === 'packingSlips' ? window.open('', '_blank') : null;
    const file = await api.file(kind, date);
    setPending(false);
    if (file === undefined) {
      tab?.close();
      setMessage('The file could not be fetched. Please try again.');
      return;
    }
    const url = URL.createObjectURL(file);
    if (tab) {
      tab.location.href = url;
      setMessage(`Packing slips for ${formatDay(date)} opened in a new tab.`);
    } else {
      const link = document.createElement('a');
      link.href = url;
      link.download = `click-and-drop-${date}.csv`;
      link.click();
      setMessage(`click-and-drop-${date}.csv downloaded.`);
    }
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  return (
    <>
      <div className="admin-actions">
        <button
          type="button"
          className="button button--secondary"
          disabled={pending}
          onClick={() => open('packingSlips')}
        >
          Packing slips
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={pending}
          onClick={() => open('dispatchCsv')}
        >
          Click &amp; Drop CSV
        </button>
      </div>
      <div role="status">{message && <p className="admin-report">{message}</p>}</div>
    </>
  );
}

const REASONS = { weather: 'Weather', supply: 'Supply', other: 'Other' } as const;

/**
 * Moves the day's undispatched orders to a later working day, asking first (the emails cannot be
 * unsent); its result stays until dismissed, as the emptied day would take the form with it.
 */
function DelayDay({
  api,
  from,
  orders,
  onDone,
}: {
  api: AdminApi;
  from: string;
  orders: number;
  onDone: () => void;
}) {
  const action = useAdminAction();
  const [to, setTo] = useState('');
  const [reason, setReason] = useState<keyof typeof REASONS>('weather');
  const delay = async () => {
    const answer = await action.run(
      (options) => api.delay({ from, to, reason }, options),
      (result) =>
        [
          result.moved.length === 0
            ? `Nothing moved: no order of ${formatDay(result.from)} was waiting. ${result.emailed.length} delay email(s) sent.`
            : `${result.moved.length} order(s) moved from ${formatDay(result.from)} to ${formatDay(result.to)}; ${result.emailed.length} delay email(s) sent to the customers.`,
          ...(result.overLimit ? [describeOverLimit(formatDay(result.to), result.overLimit)] : []),
          ...(result.closed
            ? [describeClosedDay(formatDay(result.closed.date), 'set its capacity under Shop & capacity')]
            : []),
        ].join(' '),
    );
    if (answer !== undefined) onDone();
  };
  if (orders === 0 && action.report === undefined) return null;
  return (
    <ConfirmedAction
      action={action}
      // Named even once the day is emptied and its heading gone: a form landmark needs a name.
      aria-label={`Delay ${formatDay(from)}`}
      heading={orders > 0 && <h2>Delay {formatDay(from)}</h2>}
      label="Delay the day"
      question={`Email ${orders} ${orders === 1 ? 'customer' : 'customers'} that their order moves to ${to === '' ? '' : formatDay(to)}?`}
      confirmLabel="Confirm"
      pendingLabel="Delaying…"
      onConfirm={delay}
      finished={orders === 0}
    >
      <AdminField label="New dispatch day" error={action.fieldError('to')}>
        {(props) => (
          <input {...props} type="date" required value={to} onChange={(e) => setTo(e.target.value)} />
        )}
      </AdminField>
      <ReasonField reasons={REASONS} value={reason} onChange={setReason} action={action} />
    </ConfirmedAction>
  );
}

const VERDICTS: Record<AdminOrderWeather['verdict'], string> = {
  'at risk': 'At risk',
  watch: 'Watch',
  fine: 'Fine',
  unknown: 'Unknown',
};

type WeatherLoaded = { weather: AdminWeatherResponse } | { failed: string } | undefined;
/** The forecast once it covers the day: each order's verdict. */
type CheckedWeather = Extract<AdminWeatherResponse, { state: 'checked' }>;

const orderLink = (reference: string) => `/admin?order=${encodeURIComponent(reference)}`;
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Iona Frost (INVERNESS001)", the name opening the order: what the merchant knows them by. */
function OrderName({ reference, customerName }: { reference: string; customerName: string }) {
  return (
    <>
      <Link to={orderLink(reference)}>{customerName}</Link> ({reference})
    </>
  );
}

/** What the delay did per order: each moved one's new day and why, then those left for the merchant. */
function WeatherDelayResult({ orders }: { orders: readonly AdminAtRiskMove[] }) {
  const moved = orders.filter((o) => o.to !== null);
  const left = orders.filter((o) => o.to === null);
  return (
    <div className="admin-weather-result">
      {moved.length > 0 && (
        <ul className="admin-weather" aria-label="Moved">
          {moved.map((o) => (
            <li key={o.reference}>
              <strong>Moved</strong> <OrderName {...o} />: {o.why}
            </li>
          ))}
        </ul>
      )}
      {left.length > 0 && (
        <ul className="admin-weather" aria-label="Not moved: decide by hand">
          {left.map((o) => (
            <li key={o.reference} className="admin-weather__at-risk">
              <strong>Not moved</strong> <OrderName {...o} />: {o.why}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The coming dispatch day's weather check, loaded apart so a slow forecast never holds up the page.
 * Its one action delays each order at risk to its own first fine day, asking first (emails cannot be unsent).
 */
function WeatherCard({ api, onDelayed }: { api: AdminApi; onDelayed: () => void }) {
  const [loaded, setLoaded] = useState<WeatherLoaded>(undefined);

  const load = useCallback(async () => {
    const answer = await api.weather();
    setLoaded(answer.ok ? { weather: answer.value } : { failed: answer.message });
  }, [api]);

  useEffect(() => {
    void load();
  }, [load]);

  if (loaded === undefined) {
    return (
      <div className="card">
        <h2>Weather</h2>
        <p className="loading" role="status">
          Checking the forecast…
        </p>
      </div>
    );
  }
  if ('failed' in loaded) {
    return (
      <div className="card">
        <h2>Weather</h2>
        <p>Could not see the forecast: {loaded.failed}</p>
      </div>
    );
  }
  const { weather } = loaded;
  const heading = `Weather for ${formatDay(weather.day)}`;
  // A trading stage on the free endpoint: said before anything else, whatever the day (ADR 0045).
  const keyProblem = weather.forecastKeyProblem !== undefined && (
    <p className="admin-notice" role="alert">
      <strong>Forecast key missing.</strong> {weather.forecastKeyProblem}
    </p>
  );
  if (weather.state === 'not yet') {
    return (
      <div className="card">
        <h2>{heading}</h2>
        {keyProblem}
        <p>{weather.summary}</p>
      </div>
    );
  }
  return (
    <WeatherDelay
      api={api}
      weather={weather}
      heading={heading}
      keyProblem={keyProblem}
      onDelayed={() => {
        onDelayed();
        void load();
      }}
    />
  );
}

/** The checked day's verdicts, and the delay of the orders at risk, asked first; what it did stays. */
function WeatherDelay({
  api,
  weather,
  heading,
  keyProblem,
  onDelayed,
}: {
  api: AdminApi;
  weather: CheckedWeather;
  heading: string;
  keyProblem: ReactNode;
  onDelayed: () => void;
}) {
  const [delayed, setDelayed] = useState<readonly AdminAtRiskMove[]>([]);
  const action = useAdminAction();
  const plans = weather.orders.flatMap((o) => (o.move ? [{ ...o, ...o.move }] : []));
  const movable = plans.filter((p) => p.to !== null);
  const days = new Set(movable.map((p) => p.to));
  const [onlyDay] = days;
  const toText = days.size === 1 && onlyDay ? `to ${formatDay(onlyDay)}` : 'each to its first fine day';
  const moves = movable.map((p) => `${p.customerName} to ${p.to ? formatDay(p.to) : ''}`).join(', ');
  const stays = plans.filter((p) => p.to === null).map((p) => p.customerName);
  const delay = async () => {
    const answer = await action.run(
      (options) => api.delayAtRisk({ date: weather.day }, options),
      (result) =>
        `${plural(result.moved.length, 'order', 'orders')} at risk moved from ${formatDay(result.from)}; ${plural(result.emailed.length, 'delay email', 'delay emails')} sent to the customers.`,
    );
    if (answer !== undefined) {
      setDelayed(answer.orders);
      onDelayed();
    }
  };
  return (
    <ConfirmedAction
      action={action}
      aria-label={heading}
      heading={
        <>
          <h2>{heading}</h2>
          {keyProblem}
          <p>{weather.summary}</p>
          {!weather.forecastSeen && (
            <p className="admin-notice" role="alert">
              Could not see the forecast for some orders, so they are not checked. Try again later.
            </p>
          )}
          {weather.orders.length > 0 && <WeatherVerdicts orders={weather.orders} label={heading} />}
          {action.report?.kind === 'done' && delayed.length > 0 && <WeatherDelayResult orders={delayed} />}
        </>
      }
      label={`Delay the ${plural(movable.length, 'order', 'orders')} at risk ${toText}`}
      question={`Email ${plural(movable.length, 'customer', 'customers')} that their order moves: ${moves}?${stays.length > 0 ? ` Not moved (no fine day within the forecast): ${stays.join(', ')}.` : ''}`}
      confirmLabel="Confirm"
      pendingLabel="Delaying…"
      onConfirm={delay}
      finished={movable.length === 0}
    />
  );
}

/** Each order's verdict for the day and why, with the delay it would get. */
function WeatherVerdicts({ orders, label }: { orders: CheckedWeather['orders']; label: string }) {
  return (
    <ul className="admin-weather" aria-label={label}>
      {orders.map((order) => (
        <li key={order.reference} className={`admin-weather__${order.verdict.replace(' ', '-')}`}>
          <strong>{VERDICTS[order.verdict]}</strong> <OrderName {...order} />: {order.reason}
          {order.move && (
            <>
              {' '}
              <span className="admin-weather__move">Delay: {order.move.why}</span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The bottles standing orders' coming deliveries hold on the day, apart (ADR 0060); none: nothing. */
function StandingDetail({ bottles }: { bottles: number | undefined }) {
  return bottles === undefined ? null : (
    <Detail label="Held for standing orders">{bottlesText(bottles)}</Detail>
  );
}
