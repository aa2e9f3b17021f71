import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AdminListQuery } from '../../../../shared/admin-requests';
import type { AdminRecordView } from '../../../../shared/admin-responses';
import type { AdminApi } from './admin-api';
import { AdminField } from './admin-ui';
import { RecordList } from './record-list';
import { TrackingImport } from './tracking-import';
import { useAdminParams } from './use-admin-params';

const STATUSES = ['paid', 'dispatched', 'refunded', 'requested', 'invited', 'declined'] as const;
type Status = (typeof STATUSES)[number];
const isStatus = (value: string | null): value is Status => STATUSES.some((status) => status === value);

type Loaded =
  | { kind: 'records'; records: AdminRecordView[] }
  | { kind: 'failed'; message: string; fields: Record<string, string> }
  | undefined;

/**
 * Orders and requests, filtered by status and dispatch day, or found by reference (any case),
 * name, email or postcode. The filters live in the address, so a filtered list can be reloaded
 * or shared between the merchant's devices.
 */
export function OrdersView({ api }: { api: AdminApi }) {
  const params = useAdminParams();
  const navigate = useNavigate();
  const status = params.get('status');
  const dispatch = params.get('dispatch') ?? '';
  const q = params.get('q') ?? '';
  const [loaded, setLoaded] = useState<Loaded>(undefined);

  const load = useCallback(async () => {
    const query: AdminListQuery = {
      ...(isStatus(status) && { status }),
      ...(dispatch && { dispatch }),
      ...(q.trim() && { q: q.trim() }),
    };
    const answer = await api.list(query);
    setLoaded(
      answer.ok
        ? { kind: 'records', records: answer.value.records }
        : { kind: 'failed', message: answer.message, fields: answer.kind === 'invalid' ? answer.fields : {} },
    );
  }, [api, status, dispatch, q]);

  useEffect(() => {
    void load();
  }, [load]);

  const fields = loaded?.kind === 'failed' ? loaded.fields : {};
  return (
    <section className="admin-view" aria-labelledby="admin-orders-heading">
      <h1 id="admin-orders-heading">Orders &amp; requests</h1>
      <form
        className="card admin-filters"
        aria-label="Find orders"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const next = new URLSearchParams({ view: 'orders' });
          for (const key of ['status', 'dispatch', 'q']) {
            const value = form.get(key);
            if (typeof value === 'string' && value.trim()) next.set(key, value.trim());
          }
          setLoaded(undefined);
          navigate(`/admin?${next}`);
        }}
      >
        <AdminField label="Search" hint="Reference, name, email or postcode" error={fields.q}>
          {(props) => <input {...props} name="q" type="search" defaultValue={q} />}
        </AdminField>
        <AdminField label="Status" error={fields.status}>
          {(props) => (
            <select {...props} name="status" defaultValue={isStatus(status) ? status : ''}>
              <option value="">Any</option>
              {STATUSES.map((value) => (
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
      <TrackingImport api={api} onChanged={load} />
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
          <RecordList api={api} records={loaded.records} onChanged={load} label="Orders and requests found" />
        </div>
      )}
    </section>
  );
}
