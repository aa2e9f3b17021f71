import { useCallback, useEffect, useState } from 'react';
import type { AdminWeatherThresholdsResponse } from '../../../../shared/admin-responses';
import { describeWeatherThresholds } from '../../../../shared/weather-thresholds';
import type { AdminApi } from './admin-api';
import { ActionReportView, AdminField, CardForm, type Loadable, Loaded } from './admin-ui';
import { useAdminAction } from './use-admin-action';

type Thresholds = AdminWeatherThresholdsResponse['thresholds'];

/** The four fields in the order they read, coldest first. */
const FIELDS: ReadonlyArray<[keyof Thresholds, string]> = [
  ['atRiskBelow', 'At risk below (°C)'],
  ['watchBelow', 'Watch below (°C)'],
  ['watchAbove', 'Watch above (°C)'],
  ['atRiskAbove', 'At risk above (°C)'],
];

type Typed = Record<keyof Thresholds, string>;
const typedFrom = (t: Thresholds): Typed => ({
  atRiskBelow: String(t.atRiskBelow),
  watchBelow: String(t.watchBelow),
  watchAbove: String(t.watchAbove),
  atRiskAbove: String(t.atRiskAbove),
});

/** The air temperatures the week's weather check judges orders by (ADR 0036), and setting them. */
export function WeatherThresholds({ api }: { api: AdminApi }) {
  const { loaded, typed, setTyped, action, save } = useWeatherThresholds(api);
  return (
    <CardForm onSubmit={save}>
      <h2>Weather thresholds</h2>
      <Loaded loaded={loaded}>
        {({ thresholds }) => (
          <>
            <p>{describeWeatherThresholds(thresholds)}</p>
            {FIELDS.map(([field, label]) => (
              <AdminField key={field} label={label} error={action.fieldError(field)}>
                {(props) => (
                  <input
                    {...props}
                    type="number"
                    step="any"
                    value={typed[field]}
                    onChange={(e) => setTyped((now) => ({ ...now, [field]: e.target.value }))}
                  />
                )}
              </AdminField>
            ))}
            <button type="submit" className="button button--primary" disabled={action.pending}>
              Set thresholds
            </button>
          </>
        )}
      </Loaded>
      <ActionReportView report={action.report} />
    </CardForm>
  );
}

/** The thresholds loaded once, the four values as typed, and saving all four. */
function useWeatherThresholds(api: AdminApi) {
  const [loaded, setLoaded] = useState<Loadable<{ thresholds: Thresholds }>>(undefined);
  const [typed, setTyped] = useState<Typed>({
    atRiskBelow: '',
    watchBelow: '',
    watchAbove: '',
    atRiskAbove: '',
  });
  const action = useAdminAction();
  const show = useCallback((answer: { thresholds: Thresholds }) => {
    setLoaded(answer);
    setTyped(typedFrom(answer.thresholds));
  }, []);
  useEffect(() => {
    let active = true;
    void api.weatherThresholds().then((answer) => {
      if (!active) return;
      if (answer.ok) show(answer.value);
      else setLoaded({ failed: answer.message });
    });
    return () => {
      active = false;
    };
  }, [api, show]);
  const save = async () => {
    // An empty field is no number (NaN travels as null): the API's schema words its refusal.
    const value = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));
    const answer = await action.run(
      (options) =>
        api.setWeatherThresholds(
          {
            atRiskBelow: value(typed.atRiskBelow),
            watchBelow: value(typed.watchBelow),
            watchAbove: value(typed.watchAbove),
            atRiskAbove: value(typed.atRiskAbove),
          },
          options,
        ),
      (saved) => `${describeWeatherThresholds(saved.thresholds)} No emails sent.`,
    );
    if (answer !== undefined) show(answer);
  };
  return { loaded, typed, setTyped, action, save };
}
