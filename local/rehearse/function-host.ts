import { type ChildProcess, fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';

/** The function could not load (missing setting at init, missing chunk, no such export): as Lambda's init error. */
export class FunctionInitError extends Error {
  constructor(functionName: string, detail: string) {
    super(`${functionName} failed at load: ${detail}`);
    this.name = 'FunctionInitError';
  }
}

export interface FunctionSpec {
  /** The template's logical id, e.g. CreateCheckoutFunction09C2BC7F. */
  name: string;
  /** The asset folder the template's code points at (cdk.out/asset.<hash>). */
  bundleDir: string;
  /** The template's Handler, e.g. `index.handler`. */
  handler: string;
  /** Exactly the environment the function gets: the template's, resolved, plus what the runtime sets. */
  env: Readonly<Record<string, string>>;
  /** The template's Timeout: what the handler's context.getRemainingTimeInMillis() counts down from. */
  timeoutSeconds: number;
  /** The weather check's clock (LOCAL_WEATHER_NOW), for the functions that have one; never in Lambda. */
  weatherNow?: Date | undefined;
}

export interface RunningFunction {
  name: string;
  invoke(event: unknown): Promise<unknown>;
  close(): Promise<void>;
}

const RUNNER = resolve(import.meta.dirname, 'function-runner.ts');
let runnerScript: string | undefined;

/**
 * The runner as plain JavaScript, compiled once per content: each function then starts under
 * plain `node` as Lambda starts it, without tsx's loader (seconds per process on a loaded machine).
 */
function compiledRunner(): string {
  if (runnerScript !== undefined) return runnerScript;
  // Bundled with its one local import (the weather clock, type imports only), nothing else.
  const [output] = buildSync({
    entryPoints: [RUNNER],
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
  }).outputFiles;
  if (!output) throw new Error('esbuild gave no function runner');
  const code = output.text;
  const dir = join(tmpdir(), 'rehearse-runner');
  const file = join(
    dir,
    `function-runner.${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`,
  );
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    // Written then renamed: a rehearsal starting beside this one never imports half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  runnerScript = file;
  return file;
}
const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** `index.handler` → index.mjs (or .js/.cjs, as the Node.js runtime looks) and the export `handler`. */
function bundleEntry(spec: FunctionSpec): { file: string; exportName: string } {
  const dot = spec.handler.lastIndexOf('.');
  const module = spec.handler.slice(0, dot);
  const exportName = spec.handler.slice(dot + 1);
  const file = ['.mjs', '.js', '.cjs'].map((ext) => join(spec.bundleDir, `${module}${ext}`)).find(existsSync);
  if (!file) throw new FunctionInitError(spec.name, `no ${module}.mjs in ${spec.bundleDir}`);
  return { file, exportName };
}

type RunnerMessage =
  | { type: 'ready' }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'error'; id: number; message: string };

/** One execution environment: a process with the bundle loaded, and the invocations it is running. */
interface Environment {
  child: ChildProcess;
  pending: Map<number, { done: (value: unknown) => void; fail: (error: Error) => void }>;
  ready: Promise<void>;
  initError: FunctionInitError | undefined;
  /** Discarded after a timeout or a crash: the next invocation starts a new one. */
  retiring: boolean;
  /** Its bundle loaded: an exit after this is a crash, not an init error. */
  loaded: boolean;
}

function stop(environment: Environment): Promise<void> {
  const { child } = environment;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGKILL');
  });
}

/**
 * Starts a function in a process of its own (its init runs now, as a cold start), with nothing of
 * this process's environment: what the template does not set, the function does not have. Its
 * output goes to `log`, each line prefixed by the function's name. An invocation still running at
 * the template's Timeout fails as Lambda's does ("Task timed out after N seconds" in the log), and
 * its process is discarded: the next invocation starts cold, as Lambda starts a new environment.
 * A process that exits after its init (a crash) fails the invocations it ran and is replaced the
 * same way. A failed init is not kept either: each invocation after one runs the init again in a
 * new process, as Lambda does, and answers its error only if it fails again.
 */
export async function startFunction(
  spec: FunctionSpec,
  log: (line: string) => void,
): Promise<RunningFunction> {
  const { file, exportName } = bundleEntry(spec);
  const clock = spec.weatherNow === undefined ? [] : [spec.weatherNow.toISOString()];
  const environments = new Set<Environment>();
  let nextId = 1;
  const boot = () => bootEnvironment(spec, [file, exportName, ...clock], environments, log);

  let current = boot();
  await current.ready;
  return {
    name: spec.name,
    async invoke(event) {
      if (current.retiring || current.initError !== undefined) {
        void stop(current);
        current = boot();
      }
      const environment = current;
      await environment.ready;
      if (environment.initError) throw environment.initError;
      return invokeIn(environment, nextId++, event, spec, log);
    },
    async close() {
      await Promise.all([...environments].map(stop));
    },
  };
}

/** One execution environment: the runner's process, ready once the bundle has loaded (or failed to). */
function bootEnvironment(
  spec: FunctionSpec,
  args: readonly string[],
  environments: Set<Environment>,
  log: (line: string) => void,
): Environment {
  // Plain node, none of this process's flags (tsx's loader): the bundle is imported as Lambda imports it.
  const child: ChildProcess = fork(compiledRunner(), [...args], {
    cwd: REPO_ROOT,
    env: { ...spec.env },
    execArgv: [],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) if (line.trim()) log(`[${spec.name}] ${line}`);
    });
  }
  const environment: Environment = {
    child,
    pending: new Map(),
    ready: Promise.resolve(),
    initError: undefined,
    retiring: false,
    loaded: false,
  };
  environment.ready = new Promise<void>((done) => {
    child.on('message', (message: RunnerMessage) => {
      if (message.type === 'ready') {
        environment.loaded = true;
        done();
      } else if (message.type === 'init-error') {
        environment.initError = new FunctionInitError(spec.name, message.message);
        log(environment.initError.message);
        done();
      } else {
        const waiting = environment.pending.get(message.id);
        environment.pending.delete(message.id);
        if (message.type === 'result') waiting?.done(message.result);
        else waiting?.fail(new Error(`${spec.name}: ${message.message}`));
        if (environment.retiring && environment.pending.size === 0) void stop(environment);
      }
    });
    child.once('exit', (code, signal) => {
      environments.delete(environment);
      failPending(environment, spec.name, code, signal, log);
      done();
    });
  });
  environments.add(environment);
  return environment;
}

/** What an environment's exit does to the invocations it was running. */
function failPending(
  environment: Environment,
  name: string,
  code: number | null,
  signal: NodeJS.Signals | null,
  log: (line: string) => void,
): void {
  let error: Error;
  if (environment.loaded) {
    // A crash (process.exit, an uncaught error) fails what it ran; like Lambda, the next
    // invocation gets a new environment rather than the dead one.
    const reason = `Runtime exited with error: ${code === null ? `signal: ${String(signal)}` : `exit status ${code}`}`;
    if (!environment.retiring) log(`[${name}] ${new Date().toISOString()} ${reason}`);
    environment.retiring = true;
    error = new Error(`${name}: ${reason}`);
  } else {
    error = environment.initError ?? new FunctionInitError(name, `process exited (${String(code)})`);
    environment.initError = error;
  }
  for (const waiting of environment.pending.values()) waiting.fail(error);
  environment.pending.clear();
}

/** One invocation in a ready environment, cut off at the function's timeout as Lambda does. */
function invokeIn(
  environment: Environment,
  id: number,
  event: unknown,
  spec: FunctionSpec,
  log: (line: string) => void,
): Promise<unknown> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      environment.pending.delete(id);
      const message = `Task timed out after ${spec.timeoutSeconds.toFixed(2)} seconds`;
      log(`[${spec.name}] ${new Date().toISOString()} rehearsal-${id} ${message}`);
      fail(new Error(`${spec.name}: ${message}`));
      environment.retiring = true;
      if (environment.pending.size === 0) void stop(environment);
    }, spec.timeoutSeconds * 1000);
    environment.pending.set(id, {
      done: (value) => {
        clearTimeout(timer);
        done(value);
      },
      fail: (error) => {
        clearTimeout(timer);
        fail(error);
      },
    });
    environment.child.send({ id, event, functionName: spec.name, timeoutMs: spec.timeoutSeconds * 1000 });
  });
}
