// An honest time-left estimate for a stage of a long run: the rate measured over the recent
// window (the last `windowMs` of completions), not the average since the start, so a stage that
// speeds up (cache hits after the first responses) or slows down (the machine got busy) is
// estimated at the speed it runs now. No estimate until the window holds two completions.
export class RecentRate {
  /** Completion times (ms) in the window; `#head` is the oldest still in it. */
  readonly #times: number[] = [];
  #head = 0;

  constructor(
    private readonly windowMs = 10_000,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** One more item done (now). */
  tick(): void {
    const t = this.clock();
    this.#times.push(t);
    while (this.#times.length - this.#head > 2 && t - this.#times[this.#head] > this.windowMs) this.#head++;
    if (this.#head > 4096) {
      this.#times.splice(0, this.#head);
      this.#head = 0;
    }
  }

  /** Items per second over the window, or null before two completions. */
  perSecond(): number | null {
    const n = this.#times.length - this.#head;
    if (n < 2) return null;
    const span = this.#times[this.#times.length - 1] - this.#times[this.#head];
    return span > 0 ? ((n - 1) * 1000) / span : null;
  }

  /** Seconds left for `left` more items at the recent rate, or null when it can't be said yet. */
  etaSeconds(left: number): number | null {
    if (left <= 0) return 0;
    const r = this.perSecond();
    return r ? left / r : null;
  }
}
