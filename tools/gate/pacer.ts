// Keeps the gate's requests within the service's rate limit. Real deployments allow about 60
// requests a minute, and a project can have hundreds of pages: sending them as fast as possible
// would spend the gate's run on 429s. The contract gives the budget left (X-RateLimit-Remaining)
// but not when the window resets, so the gate never has more requests in flight than the budget
// left, and once it is spent sends one at a time, whose 429 then says how long to wait (Retry-After).

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class RatePacer {
  private blockedUntil = 0;
  private remaining: number | null = null;
  private inFlight = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly clock: Clock) {}

  /** Waits until a request may go out; pair each call with `release`. */
  async acquire(): Promise<void> {
    for (;;) {
      const wait = this.blockedUntil - this.clock.now();
      if (wait > 0) {
        await this.clock.sleep(wait);
        continue;
      }
      // Until an answer has told the budget, one request at a time.
      if (this.inFlight < Math.max(1, this.remaining ?? 1)) {
        this.inFlight += 1;
        return;
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** A request is done; its answer's headers (if any came) update the budget. */
  release(headers?: Headers): void {
    this.inFlight -= 1;
    const remaining = Number(headers?.get('X-RateLimit-Remaining') ?? NaN);
    if (Number.isInteger(remaining) && remaining >= 0) this.remaining = remaining;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** A 429: nobody sends anything for `seconds`. */
  pause(seconds: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.clock.now() + seconds * 1000);
  }
}
