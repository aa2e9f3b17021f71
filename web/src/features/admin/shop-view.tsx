import { useCallback, useEffect, useState } from 'react';
import type { AdminCapacityResponse, AdminShopSettingsView } from '../../../../shared/admin-responses';
import type { AdminApi } from './admin-api';
import { bottlesText, formatDay } from './admin-format';
import { ActionReportView, AdminField, CardForm, type Loadable, Loaded, SelectField } from './admin-ui';
import { NotificationsControl } from './notifications';
import { useAdminAction } from './use-admin-action';
import { WeatherThresholds } from './weather-thresholds';

const MODE_WORDS: Record<AdminShopSettingsView['mode'], string> = {
  open: 'Open: customers can order and pay.',
  paused: 'Paused: customers cannot order.',
  requests: 'Taking order requests: customers ask, and you send a payment link.',
};

/** The shop's mode (pause with a message, requests mode, resume) and each dispatch day's capacity. */
export function ShopView({ api }: { api: AdminApi }) {
  const [shop, setShop] = useState<Loadable<AdminShopSettingsView>>(undefined);
  useEffect(() => {
    let active = true;
    void api.status().then((answer) => {
      if (active) setShop(answer.ok ? answer.value.shop : { failed: answer.message });
    });
    return () => {
      active = false;
    };
  }, [api]);
  return (
    <section className="admin-view" aria-labelledby="admin-shop-heading">
      <h1 id="admin-shop-heading">Shop &amp; capacity</h1>
      <Loaded loaded={shop}>{(settings) => <ShopMode api={api} shop={settings} onChange={setShop} />}</Loaded>
      <Capacity api={api} />
      <WeatherThresholds api={api} />
      <NotificationsControl api={api} />
    </section>
  );
}

function ShopMode({
  api,
  shop,
  onChange,
}: {
  api: AdminApi;
  shop: AdminShopSettingsView;
  onChange: (shop: AdminShopSettingsView) => void;
}) {
  const { action, mode, setMode, message, setMessage, pause, resume } = useShopMode(api, shop, onChange);
  return (
    <CardForm onSubmit={pause}>
      <h2>Shop</h2>
      <p>
        <strong>Now:</strong> {MODE_WORDS[shop.mode]}
        {shop.message ? ` Message: “${shop.message}”` : ''}
      </p>
      <StopChoice mode={mode} onChange={setMode} />
      <AdminField
        label="Message to customers"
        hint="Shown on the shop page, e.g. when you will be back."
        error={action.fieldError('message')}
      >
        {(props) => (
          <textarea {...props} rows={3} value={message} onChange={(e) => setMessage(e.target.value)} />
        )}
      </AdminField>
      <div className="admin-actions">
        {/* While stopped, reopening is what the shop needs next, so it is the filled button and comes first. */}
        {shop.mode !== 'open' && (
          <button type="button" className="button button--primary" disabled={action.pending} onClick={resume}>
            Resume orders
          </button>
        )}
        <button
          type="submit"
          className={shop.mode === 'open' ? 'button button--primary' : 'button button--secondary'}
          disabled={action.pending}
        >
          {mode === 'paused' ? 'Pause the shop' : 'Take requests'}
        </button>
      </div>
      <ActionReportView report={action.report} />
    </CardForm>
  );
}

function Capacity({ api }: { api: AdminApi }) {
  const { capacity, action, date, setDate, limit, setLimit, save } = useCapacity(api);
  return (
    <CardForm onSubmit={save}>
      <h2>Capacity</h2>
      {capacity === undefined && <p className="hint">Loading…</p>}
      {capacity !== undefined && 'failed' in capacity && <p role="alert">{capacity.failed}</p>}
      {capacity !== undefined && 'rows' in capacity && (
        <>
          <p>
            Every dispatch day:{' '}
            {capacity.settings.weekly === null
              ? 'no limit'
              : `at most ${bottlesText(capacity.settings.weekly)}`}
            .
          </p>
          <CapacityTable rows={capacity.rows} />
          <SelectField
            label="Day"
            error={action.fieldError('date')}
            value={date}
            options={[
              { value: 'default', words: 'Every dispatch day' },
              // A day orders were moved to is not sold by checkout: no limit can be set for it.
              ...capacity.rows
                .filter((row) => row.dispatchDay)
                .map((row) => ({ value: row.date, words: formatDay(row.date) })),
            ]}
            onChange={setDate}
          />
          <AdminField label="Bottles" hint="Leave empty for no limit." error={action.fieldError('bottles')}>
            {(props) => (
              <input
                {...props}
                type="number"
                inputMode="numeric"
                min={0}
                step={1}
                value={limit}
                onChange={(e) => setLimit(e.target.value)}
              />
            )}
          </AdminField>
          <button type="submit" className="button button--primary" disabled={action.pending}>
            Set capacity
          </button>
        </>
      )}
      <ActionReportView report={action.report} />
    </CardForm>
  );
}

/** Each dispatch day's capacity, loaded once, and the limit being set for a day or for every day. */
function useCapacity(api: AdminApi) {
  const [capacity, setCapacity] = useState<Loadable<AdminCapacityResponse>>(undefined);
  const action = useAdminAction();
  const [date, setDate] = useState('default');
  const [limit, setLimit] = useState('');

  const load = useCallback(async () => {
    const answer = await api.capacity();
    setCapacity(answer.ok ? answer.value : { failed: answer.message });
  }, [api]);
  useEffect(() => {
    void load();
  }, [load]);

  const save = async () => {
    const value = limit.trim() === '' ? null : Number(limit);
    const answer = await action.run(
      (options) => api.setCapacity({ date, bottles: value }, options),
      (result) =>
        [
          `${result.date === 'default' ? 'Every dispatch day' : formatDay(result.date)}: ${value === null ? 'no limit' : `at most ${bottlesText(value)}`}.`,
          ...result.oversold.map(
            (day) =>
              `${formatDay(day.date)} has sold ${day.sold} already: nothing cancelled, it sells no more.`,
          ),
          'No emails sent.',
        ].join(' '),
    );
    if (answer !== undefined) setCapacity(answer);
  };
  return { capacity, action, date, setDate, limit, setLimit, save };
}

/** Bottles per dispatch day: the limit, sold, held and left, with the day's orders under its name. */
function CapacityTable({ rows }: { rows: AdminCapacityResponse['rows'] }) {
  return (
    // On a phone each day is a row of its own above its four figures (admin.css): nothing scrolls or hides.
    <table className="admin-table">
      <caption className="visually-hidden">Bottles per dispatch day</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Limit</th>
          <th scope="col">Sold</th>
          <th scope="col">Held</th>
          <th scope="col">Left</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.date}>
            <th scope="row">
              {formatDay(row.date)}
              {row.orders > 0 && (
                <>
                  <br />
                  <small>
                    {row.orders} {row.orders === 1 ? 'order' : 'orders'}, {bottlesText(row.bottles)}
                  </small>
                </>
              )}
            </th>
            <td>{row.capacity ?? 'none'}</td>
            <td>{row.sold}</td>
            <HeldCell reserved={row.reserved} standing={row.standing} />
            <td>{row.left ?? '–'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The shop's mode being chosen (paused or taking requests, with a message), and pausing or resuming it. */
function useShopMode(
  api: AdminApi,
  shop: AdminShopSettingsView,
  onChange: (shop: AdminShopSettingsView) => void,
) {
  const action = useAdminAction();
  const [mode, setMode] = useState<'paused' | 'requests'>(shop.mode === 'requests' ? 'requests' : 'paused');
  const [message, setMessage] = useState(shop.message ?? '');
  const pause = async () => {
    const answer = await action.run(
      (options) => api.pause({ mode, ...(message.trim() && { message: message.trim() }) }, options),
      (result) =>
        [
          result.settings.mode === 'paused' ? 'The shop is paused.' : 'The shop takes order requests.',
          result.settings.message ? `Customers see: “${result.settings.message}”.` : '',
          result.closed.length > 0 ? `${result.closed.length} unpaid checkout(s) closed.` : '',
          result.completedMeanwhile.length > 0
            ? `${result.completedMeanwhile.length} paid meanwhile: kept, marked placed while paused.`
            : '',
          result.failed.length > 0 || result.listingFailed
            ? 'Some checkouts could not be closed: pause again.'
            : '',
          'No emails sent.',
        ]
          .filter(Boolean)
          .join(' '),
    );
    if (answer !== undefined) onChange(answer.settings);
  };
  const resume = async () => {
    const answer = await action.run(
      () => api.resume(),
      () => 'The shop is open again: customers can order and pay. No emails sent.',
    );
    if (answer !== undefined) onChange(answer.settings);
  };

  return { action, mode, setMode, message, setMessage, pause, resume };
}

/** How the shop stops taking orders: paused, or taking requests the merchant answers with a payment link. */
function StopChoice({
  mode,
  onChange,
}: {
  mode: 'paused' | 'requests';
  onChange: (mode: 'paused' | 'requests') => void;
}) {
  return (
    <fieldset className="admin-choice">
      <legend>Stop orders by</legend>
      <label>
        <input type="radio" name="mode" checked={mode === 'paused'} onChange={() => onChange('paused')} />{' '}
        Pausing the shop
      </label>
      <label>
        <input type="radio" name="mode" checked={mode === 'requests'} onChange={() => onChange('requests')} />{' '}
        Taking order requests
      </label>
    </fieldset>
  );
}

/** A day's held bottles: checkouts', and standing orders' coming deliveries apart (ADR 0060). */
function HeldCell({ reserved, standing }: { reserved: number; standing?: number | undefined }) {
  return (
    <td>
      {reserved}
      {standing !== undefined && (
        <>
          <br />
          <small>{standing} standing</small>
        </>
      )}
    </td>
  );
}
