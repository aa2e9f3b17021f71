import type { Server } from 'node:http';
import * as sesLocal from 'aws-ses-v2-local';

/**
 * Starts aws-ses-v2-local, the SES stand-in. It is CommonJS with `__esModule`: vitest hands us its
 * server function as `default`, Node's ESM loader (tsx) wraps it once more as `default.default`.
 */
export function startSesLocal(options: { port: number; host: string }): Promise<Server> {
  const exported: unknown = sesLocal.default;
  const start =
    typeof exported === 'function'
      ? sesLocal.default
      : (exported as { default: typeof sesLocal.default }).default;
  return start(options);
}
