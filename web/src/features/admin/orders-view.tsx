import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AdminListQuery } from '../../../../shared/admin-requests';
import type { AdminRecordView } from '../../../../shared/admin-responses';
import { RECORD_STATUSES, type RecordStatus } from '../../../../shared/record-status';
import type { AdminApi } from './admin-api';
import { ActionReportView, AdminField } from './admin-ui';
import { RecordList } from './record-list';
import { TrackingImport } from './tracking-import';
import { useAdminAction } from './use-admin-action';
import { useAdminParams } from './use-admin-params';

const isStatus = (value: string | null): value is RecordStatus =>
  RECORD_STATUSES.some((status) => status === value);

type Loaded =
  | { kind: 'records'; records: AdminRecordView[] }
  | { kind: 'failed'; message: string; fields: Record<string, string> }
  | undefined;

/** Orders and requests, filtered or searched; the filters live in the address, so a list can be shared. */
export function OrdersView({ api }: { api: AdminApi }) {
  const { filters, loaded, reload, search } = useRecordSearch(api);
  // Kept above the list, which a search remounts: the bulk dispatch's result stays until dismissed.
  const dispatchAction = useAdminAction();
  const fields = loaded?.kind === 'failed' ? loaded.fields : {};
  return (
    <section className="admin-view" aria-labelledby="admin-orders-heading">
      <h1 id="admin-orders-heading">Orders &amp; requests</h1>
      <OrderFilters filters={filters} fields={fields} onSearch={search} />
      <TrackingImport api={api} onChanged={reload} />
      {loaded === undefined && (
        <p className="loading" role="status">
          Loading…
        </p>
      )}
      {loaded?.kind === 'failed' && <p role="alert">{loaded.message}</p>}
      {loaded?.kind === 'records' && (
        <div className="card">
          <h2>
            {loaded.records.length} {loaded.records.length === 1 ? 'result' : 'results'}
          </h2>
          <RecordList
            api={api}
            records={loaded.records}
            onChanged={reload}
            label="Orders and requests found"
            action={dispatchAction}
          />
        </div>
      )}
      {loaded?.kind !== 'records' && dispatchAction.report !== undefined && (
        // While a search loads, or failed, the last dispatch's result is still shown.
        <ActionReportView report={dispatchAction.report} onDismiss={dispatchAction.clear} className="card" />
      )}
    </section>
  );
}

/** The filters as the address holds them. */
interface Filters {
  status: string | null;
  dispatch: string;
  q: string;
}

/** The list for the address's filters; `search` writes a form's filters there, `reload` reads it again. */
function useRecordSearch(api: AdminApi) {
  const params = useAdminParams();
  const navigate = useNavigate();
  const status = params.get('status');
  const dispatch = params.get('dispatch') ?? '';
  const q = params.get('q') ?? '';
  const [loaded, setLoaded] = useState<Loaded>(undefined);
  // Each "Show" is a search of its own: the same filters again leave the address as it was, so
  // the address alone would not run it again (and the list, cleared, would stay "Loading…").
  const [searches, setSearches] = useState(0);

  const load = useCallback(async () => {
    const query: AdminListQuery = {
      ...(isStatus(status) && { status }),
      ...(dispatch && { dispatch }),
      ...(q.trim() && { q: q.trim() }),
    };
    const answer = await api.list(query);
    return (): Loaded =>
      answer.ok
        ? { kind: 'records', records: answer.value.records }
        : { kind: 'failed', message: answer.message, fields: answer.kind === 'invalid' ? answer.fields : {} };
  }, [api, status, dispatch, q]);

  const reload = useCallback(async () => setLoaded((await load())()), [load]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `searches` runs the search again on each Show.
  useEffect(() => {
    // Only the latest search's answer is shown: an earlier one arriving late is dropped.
    let active = true;
    void load().then((answer) => {
      if (active) setLoaded(answer());
    });
    return () => {
      active = false;
    };
  }, [load, searches]);

  const search = (form: FormData) => {
    const next = new URLSearchParams({ view: 'orders' });
    for (const key of ['status', 'dispatch', 'q']) {
      const value = form.get(key);
      if (typeof value === 'string' && value.trim()) next.set(key, value.trim());
    }
    setLoaded(undefined);
    setSearches((count) => count + 1);
    navigate(`/admin?${next}`);
  };
  return { filters: { status, dispatch, q }, loaded, reload, search };
}

/** "Find orders": search text, status and dispatch day, each with the API's word on it when refused. */
function OrderFilters({
  filters: { status, dispatch, q },
  fields,
  onSearch,
}: {
  filters: Filters;
  fields: Record<string, string>;
  onSearch: (form: FormData) => void;
}) {
  return (
    <form
      className="card admin-filters"
      aria-label="Find orders"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(new FormData(event.currentTarget));
      }}
    >
      <AdminField label="Search" hint="Reference, name, email or postcode" error={fields.q}>
        {(props) => <input {...props} name="q" type="search" defaultValue={q} />}
      </AdminField>
      <AdminField label="Status" error={fields.status}>
        {(props) => (
          <select {...props} name="status" defaultValue={isStatus(status) ? status : ''}>
            <option value="">Any</option>
            {RECORD_STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        )}
      </AdminField>
      <AdminField label="Dispatch day" error={fields.dispatch}>
        {(props) => <input {...props} name="dispatch" type="date" defaultValue={dispatch} />}
      </AdminField>
      <button type="submit" className="button button--primary">
        Show
      </button>
    </form>
  );
}
