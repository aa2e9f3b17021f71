/**
 * The simulator's time: a base clock (the host's, or one a test harness shares with the code under
 * test) plus however far tests have moved it forward. Everything Stripe does "later" reads it:
 * `created`, `expires_at` checks, events and their signatures, idempotency keys' lifetime, and the
 * waits for a Direct Debit to settle, so moving it forward makes those things happen now.
 */
export class SimulatorClock {
  private offsetMs = 0;
  private readonly tasks = new Set<ScheduledTask>();
  private cancelled = false;

  constructor(private readonly base: () => number = Date.now) {}

  nowMs(): number {
    return this.base() + this.offsetMs;
  }

  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /**
   * Runs `task` once `ms` have passed on this clock, by real time or by `advance`, whichever
   * comes first; never if `cancelAll` runs before.
   */
  schedule(ms: number, task: () => Promise<void>): void {
    if (this.cancelled) return;
    const scheduled: ScheduledTask = {
      dueAtMs: this.nowMs() + ms,
      timer: setTimeout(() => void this.run(scheduled), ms),
      task,
    };
    this.tasks.add(scheduled);
  }

  /** Moves the clock forward and runs every task that falls due; resolves when they have finished. */
  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new Error(`the clock only moves forward, not by ${ms} ms`);
    this.offsetMs += ms;
    const now = this.nowMs();
    const due = [...this.tasks].filter((scheduled) => scheduled.dueAtMs <= now);
    await Promise.all(due.map((scheduled) => this.run(scheduled)));
  }

  cancelAll(): void {
    this.cancelled = true;
    for (const scheduled of this.tasks) clearTimeout(scheduled.timer);
    this.tasks.clear();
  }

  private run(scheduled: ScheduledTask): Promise<void> {
    clearTimeout(scheduled.timer);
    // Each task runs once, whether its timer or an advance reaches it first.
    if (!this.tasks.delete(scheduled)) return Promise.resolve();
    return scheduled.task();
  }
}

interface ScheduledTask {
  dueAtMs: number;
  timer: NodeJS.Timeout;
  task: () => Promise<void>;
}
