/** Timers that can all be cut short at once, so closing the simulator never waits for one. */
export class Delays {
  private readonly timers = new Map<NodeJS.Timeout, (elapsed: boolean) => void>();
  private cancelled = false;

  /** Resolves true after `ms`, or false as soon as `cancelAll` runs (at once if it already has). */
  wait(ms: number): Promise<boolean> {
    if (this.cancelled) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve(true);
      }, ms);
      this.timers.set(timer, resolve);
    });
  }

  cancelAll(): void {
    this.cancelled = true;
    for (const [timer, resolve] of this.timers) {
      clearTimeout(timer);
      resolve(false);
    }
    this.timers.clear();
  }
}
