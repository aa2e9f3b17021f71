/**
 * One Lambda function as the Node.js runtime runs it: this process imports the bundle the
 * template names (its init, with exactly the environment it was given) and answers invocations
 * from its parent over IPC, one message per event. Started by function-host.ts, never by hand.
 */
import { pathToFileURL } from 'node:url';
import { handlerOnWeatherClock } from '../weather-clock';

type Handler = (event: unknown, context: unknown) => unknown;

interface Invocation {
  id: number;
  event: unknown;
  functionName: string;
  timeoutMs: number;
}

function send(message: unknown): void {
  process.send?.(message);
}

// The third argument, when given, is the weather clock (LOCAL_WEATHER_NOW): never the function's environment.
const [bundleFile, handlerName, weatherNow] = process.argv.slice(2);
let handler: Handler | undefined;
try {
  if (!bundleFile || !handlerName) throw new Error('usage: function-runner <bundle.mjs> <export>');
  const loaded: Record<string, unknown> = await import(pathToFileURL(bundleFile).href);
  const exported = loaded[handlerName];
  if (typeof exported !== 'function') throw new Error(`${bundleFile} exports no function ${handlerName}`);
  const onClock =
    weatherNow === undefined ? undefined : handlerOnWeatherClock(loaded, new Date(weatherNow), process.env);
  handler = (event, context) => Reflect.apply(onClock ?? exported, undefined, [event, context]);
  send({ type: 'ready' });
} catch (error) {
  // Lambda's Runtime.ImportModuleError / init error: the function never answers.
  send({ type: 'init-error', message: error instanceof Error ? error.message : String(error) });
  process.exitCode = 1;
  process.disconnect?.();
}

process.on('message', (message: Invocation) => {
  // The reconciler stops a run in time for its limit: it must see the template's Timeout, as in Lambda.
  const deadline = Date.now() + message.timeoutMs;
  const context = {
    functionName: message.functionName,
    awsRequestId: `rehearsal-${message.id}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
  Promise.resolve()
    .then(() => handler?.(message.event, context))
    .then(
      (result) => send({ type: 'result', id: message.id, result: result ?? null }),
      (error: unknown) =>
        send({
          type: 'error',
          id: message.id,
          message: error instanceof Error ? error.message : String(error),
        }),
    );
});
