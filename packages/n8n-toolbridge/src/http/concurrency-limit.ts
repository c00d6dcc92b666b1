/**
 * Counts work in flight and refuses more than `max` at once (the caller answers 429 with
 * Retry-After). No queue: a client that gets 429 retries later.
 */
export class ConcurrencyLimit {
	private running = 0;

	constructor(readonly max: number) {}

	/** Takes a slot; returns the function that gives it back (idempotent), or undefined when all are taken. */
	tryAcquire(): (() => void) | undefined {
		if (this.running >= this.max) return undefined;
		this.running += 1;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			this.running -= 1;
		};
	}

	get inFlight(): number {
		return this.running;
	}
}
