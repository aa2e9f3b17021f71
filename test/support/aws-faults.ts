import { randomUUID } from 'node:crypto';
import type { MetadataBearer, MiddlewareStack } from '@smithy/types';

export interface AwsFault {
  /** The SDK command name, e.g. `PutItemCommand`, `UpdateItemCommand`, `SendEmailCommand`. */
  command: string;
  /** Only commands whose input matches (the document client's input, before marshalling). */
  matches?: (input: unknown) => boolean;
  /**
   * `before`: the request never leaves, nothing happens at the service (an outage).
   * `after`: the service did the work, then the answer is lost (a crash or timeout right after).
   */
  when: 'before' | 'after';
  /** How many matching commands fail; default 1. */
  times?: number;
  /** The error thrown, e.g. the service's own exception; default an InjectedAwsFault. */
  error?: () => Error;
}

export interface InjectedFault {
  /** How many commands the fault has failed so far. */
  readonly fired: number;
  remove(): void;
}

export class InjectedAwsFault extends Error {
  constructor(command: string, when: string) {
    super(`Injected fault ${when} ${command}`);
    this.name = 'InjectedAwsFault';
  }
}

/**
 * Fails real SDK commands from inside the real client: a middleware at the start of the stack,
 * so every other part (signing, HTTP, the stand-in behind it) runs as in production. An `after`
 * fault lets the command reach the service and complete, then throws in place of its answer.
 */
export function injectAwsFault<Input extends object, Output extends MetadataBearer>(
  client: { middlewareStack: MiddlewareStack<Input, Output> },
  fault: AwsFault,
): InjectedFault {
  const name = `injected-fault-${randomUUID()}`;
  let fired = 0;
  const remaining = () => fired < (fault.times ?? 1);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const hit =
        context.commandName === fault.command && remaining() && (fault.matches?.(args.input) ?? true);
      if (!hit) return next(args);
      fired += 1;
      if (fault.when === 'before') throw fault.error?.() ?? new InjectedAwsFault(fault.command, 'before');
      await next(args);
      throw fault.error?.() ?? new InjectedAwsFault(fault.command, 'after');
    },
    { step: 'initialize', name },
  );
  return {
    get fired() {
      return fired;
    },
    remove: () => {
      client.middlewareStack.remove(name);
    },
  };
}

/** Matches an input whose JSON contains every one of `parts` (an attribute name, a value). */
export function inputContaining(...parts: string[]): (input: unknown) => boolean {
  return (input) => {
    const text = JSON.stringify(input);
    return parts.every((part) => text.includes(part));
  };
}

/** Counts the commands a real client sends (every one, whatever its outcome). */
export function countCommands<Input extends object, Output extends MetadataBearer>(client: {
  middlewareStack: MiddlewareStack<Input, Output>;
}): () => number {
  let count = 0;
  client.middlewareStack.add(
    (next) => (args) => {
      count += 1;
      return next(args);
    },
    { step: 'initialize', name: `command-counter-${randomUUID()}` },
  );
  return () => count;
}

/** Records the input of every `command` a real client sends, for fields a stand-in does not keep. */
export function recordInputs<Input extends object, Output extends MetadataBearer>(
  client: { middlewareStack: MiddlewareStack<Input, Output> },
  command: string,
): unknown[] {
  const inputs: unknown[] = [];
  client.middlewareStack.add(
    (next, context) => (args) => {
      if (context.commandName === command) inputs.push(structuredClone(args.input));
      return next(args);
    },
    { step: 'initialize', name: `input-recorder-${randomUUID()}` },
  );
  return inputs;
}
