import { vi } from 'vitest';
import { logger } from '../../lambdas/lib/logger';

/**
 * Collects the structured log lines the lambdas' logger writes while `act` runs (Powertools writes
 * JSON lines to stdout and stderr), to assert that an operator-facing error really is logged.
 */
export async function captureLogs(act: () => Promise<unknown>): Promise<Array<Record<string, unknown>>> {
  const lines: string[] = [];
  const collect = (chunk: string | Uint8Array) => {
    lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  // Powertools writes warnings and errors to stderr, the rest to stdout.
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(collect),
    vi.spyOn(process.stderr, 'write').mockImplementation(collect),
  ];
  logger.setLogLevel('INFO');
  try {
    await act();
  } finally {
    logger.setLogLevel('SILENT');
    for (const spy of spies) spy.mockRestore();
  }
  return lines
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.startsWith('{'))
    .map((line): Record<string, unknown> => JSON.parse(line));
}
