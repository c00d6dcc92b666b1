/**
 * Counts work in flight and refuses more than `max` at once (the caller answers 429 with
 * Retry-After). No queue: a client that gets 429 retries later.
 */
export class ConcurrencyLimit {
	private running = 0;

	constructor(readonly max: number) {}

	/**
	 * Takes `count` slots at once (a request carrying several calls takes one per call);
	 * returns the function that gives them back (idempotent), or undefined when not that many
	 * are free.
	 */
	tryAcquire(count = 1): (() => void) | undefined {
		if (this.running + count > this.max) return undefined;
		this.running += count;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.running -= count;
		};
	}

	get inFlight(): number {
		return this.running;
	}
}
