import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { type Assembly, mentionedIds, resourcesOfType } from './assembly';

/** One of the template's EventBridge rules with a schedule, and the function it invokes. */
export interface Schedule {
  /** The rule's logical id, e.g. ReconcileSchedule3E7728F7. */
  rule: string;
  /** `rate(15 minutes)`, `cron(30 18 * * ? *)`: as the template has it (UTC). */
  expression: string;
  enabled: boolean;
  /** The target function's logical id. */
  target: string;
  /** The target's constant Input, when the template gives one; else EventBridge's scheduled event. */
  input: unknown;
}

const targetSchema = z.object({ Arn: z.unknown(), Input: z.string().optional() });

/** Every scheduled rule targeting a function of the assembly, in the template's order. */
export function readSchedules(assembly: Assembly): Schedule[] {
  const functions = new Set(resourcesOfType(assembly, 'AWS::Lambda::Function').map(([id]) => id));
  const schedules: Schedule[] = [];
  for (const [rule, resource] of resourcesOfType(assembly, 'AWS::Events::Rule')) {
    const expression = resource.Properties.ScheduleExpression;
    if (typeof expression !== 'string') continue;
    for (const target of z.array(targetSchema).default([]).parse(resource.Properties.Targets)) {
      const functionId = mentionedIds(target.Arn).find((id) => functions.has(id));
      if (functionId === undefined) continue;
      schedules.push({
        rule,
        expression,
        enabled: resource.Properties.State !== 'DISABLED',
        target: functionId,
        input: target.Input === undefined ? undefined : JSON.parse(target.Input),
      });
    }
  }
  return schedules;
}

/** `rate(15 minutes)` → milliseconds; undefined for a cron expression. */
export function rateMs(expression: string): number | undefined {
  const match = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  if (!match) return undefined;
  const unit = { minute: 60_000, hour: 3_600_000, day: 86_400_000 }[match[2]?.replace(/s$/, '') ?? 'minute'];
  return Number(match[1]) * (unit ?? 60_000);
}

/**
 * The schedule a person or a test names: its logical id, or the id's construct part
 * (`ReconcileSchedule` for ReconcileSchedule3E7728F7), so a name survives a change of hash.
 */
export function findSchedule(schedules: readonly Schedule[], name: string): Schedule | undefined {
  return (
    schedules.find((schedule) => schedule.rule === name) ??
    schedules.find((schedule) => schedule.rule.replace(/[0-9A-F]{8}$/, '') === name)
  );
}

/**
 * The rehearsal's control port, on this machine only: `GET /__rehearse/schedules` lists the
 * rules, `POST /__rehearse/schedules/<rule>/run` runs one's target now, as EventBridge would at
 * its next tick, and answers with what the function returned (502 with its error if it threw).
 */
export async function startControlServer(options: {
  port: number;
  schedules: readonly Schedule[];
  run: (schedule: Schedule) => Promise<unknown>;
}): Promise<{ url: string; server: Server }> {
  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'GET' && path === '/__rehearse/schedules') {
      json(res, 200, { schedules: options.schedules });
      return;
    }
    const name = /^\/__rehearse\/schedules\/([^/]+)\/run$/.exec(path)?.[1];
    if (req.method !== 'POST' || name === undefined) {
      json(res, 404, { error: 'Try GET /__rehearse/schedules or POST /__rehearse/schedules/<rule>/run' });
      return;
    }
    const schedule = findSchedule(options.schedules, decodeURIComponent(name));
    if (!schedule) {
      json(res, 404, { error: `No schedule ${name}`, schedules: options.schedules.map((s) => s.rule) });
      return;
    }
    options.run(schedule).then(
      (result) => json(res, 200, { rule: schedule.rule, target: schedule.target, result }),
      (error: unknown) =>
        json(res, 502, {
          rule: schedule.rule,
          target: schedule.target,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  });
  const port = await new Promise<number>((done, fail) => {
    server.once('error', (error) =>
      fail(new Error(`Rehearsal control port ${options.port}: ${error.message}`)),
    );
    server.listen(options.port, '127.0.0.1', () => done((server.address() as AddressInfo).port));
  });
  return { url: `http://127.0.0.1:${port}`, server };
}
