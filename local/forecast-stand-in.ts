import { createServer, type Server } from 'node:http';
import { z } from 'zod';
import { addDays, type IsoDate, londonDate } from '../shared/dispatch';
import { readBody } from './request-body';

// A stand-in for Open-Meteo's forecast API (GET /v1/forecast, hourly temperature_2m in Europe/London),
// so the weather check runs locally and in tests with no network. Every place reads a mild 6 to 12 °C
// until told otherwise by POST /__set.

/** POST /__set: one place's day (`date`, yyyy-mm-dd), or `delayMs` to make every answer slow (0 resets). */
const setSchema = z.union([
  z.object({
    latitude: z.number(),
    longitude: z.number(),
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    min: z.number(),
    max: z.number(),
  }),
  z.object({ delayMs: z.number().int().min(0) }),
  z.object({ reset: z.literal(true) }),
]);

export interface ForecastStandIn {
  url: string;
  server: Server;
  /** Every /v1/forecast request, as "lat,lon": the test's count of provider calls. */
  requests: string[];
  close(): Promise<void>;
}

/** Starts the stand-in on `port` (0: any free port). */
export async function startForecastStandIn(
  port: number,
  now: () => Date = () => new Date(),
): Promise<ForecastStandIn> {
  const days = new Map<string, { min: number; max: number }>();
  let delayMs = 0;
  const requests: string[] = [];
  const placeKey = (lat: number, lon: number) => `${lat.toFixed(2)},${lon.toFixed(2)}`;
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      if (req.method === 'POST' && url.pathname === '/__set') {
        const parsed = setSchema.safeParse(JSON.parse((await readBody(req)).toString('utf8') || '{}'));
        if (!parsed.success) {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ error: parsed.error.message }));
          return;
        }
        const set = parsed.data;
        if ('reset' in set) {
          days.clear();
          delayMs = 0;
        } else if ('delayMs' in set) delayMs = set.delayMs;
        else days.set(`${placeKey(set.latitude, set.longitude)}#${set.date}`, { min: set.min, max: set.max });
        res.writeHead(204).end();
        return;
      }
      if (req.method !== 'GET' || url.pathname !== '/v1/forecast') {
        res.writeHead(404).end();
        return;
      }
      const lat = Number(url.searchParams.get('latitude'));
      const lon = Number(url.searchParams.get('longitude'));
      if (
        !url.searchParams.has('latitude') ||
        !url.searchParams.has('longitude') ||
        !Number.isFinite(lat) ||
        !Number.isFinite(lon)
      ) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: true, reason: 'latitude and longitude required' }));
        return;
      }
      requests.push(placeKey(lat, lon));
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      const count = Number(url.searchParams.get('forecast_days') ?? '7');
      const dayAt = (date: IsoDate) => days.get(`${placeKey(lat, lon)}#${date}`) ?? { min: 6, max: 12 };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          latitude: lat,
          longitude: lon,
          timezone: 'Europe/London',
          hourly_units: { time: 'iso8601', temperature_2m: '°C' },
          hourly: hourlyTemperatures(londonDate(now()), count, dayAt),
        }),
      );
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  const actual = address !== null && typeof address !== 'string' ? address.port : port;
  return {
    url: `http://127.0.0.1:${actual}`,
    server,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Open-Meteo's hourly series for `count` days from `first`, each day's low and high as set. */
function hourlyTemperatures(
  first: IsoDate,
  count: number,
  dayAt: (date: IsoDate) => { min: number; max: number },
): { time: string[]; temperature_2m: number[] } {
  const time: string[] = [];
  const temperature_2m: number[] = [];
  for (let d = 0; d < count; d += 1) {
    const date = addDays(first, d);
    const { min, max } = dayAt(date);
    for (let hour = 0; hour < 24; hour += 1) {
      time.push(`${date}T${String(hour).padStart(2, '0')}:00`);
      // Coldest at 05:00, warmest at 14:00, as a clear winter day runs.
      temperature_2m.push(hour === 5 ? min : hour === 14 ? max : (min + max) / 2);
    }
  }
  return { time, temperature_2m };
}
