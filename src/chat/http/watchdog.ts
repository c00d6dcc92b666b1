/** Something the {@link Watchdog} checks. */
export interface Watched {
	/** Checks at `now` (epoch ms); returns when to check again, or `undefined` for never. */
	check(now: number): number | undefined;
}

/**
 * One timer for every time limit of the chat client's running attempts. An attempt is
 * watched with the moment its first limit could run out; the timer is set for the earliest
 * such moment among all, and when it fires it checks the attempts that are due, which say
 * when to check them next. Attempts that start later than the armed moment (nearly all, one
 * request after another) cost no timer of their own: Node's timer list insert and removal
 * per request was a measurable part of the loop bench. The timer is unref'd: what keeps a
 * process alive while a request runs is its socket, not its time limit.
 */
export class Watchdog {
	private readonly due = new Map<Watched, number>();
	private timer: ReturnType<typeof setTimeout> | undefined;
	private armedAt = Infinity;

	/** Checks `item` at `at` (epoch ms), and then whenever it asks, until {@link unwatch}. */
	watch(item: Watched, at: number): void {
		this.due.set(item, at);
		if (at < this.armedAt) this.arm(at);
	}

	/** Stops checking `item`. */
	unwatch(item: Watched): void {
		// The timer stays: when it fires and nothing is due, it is simply not set again.
		this.due.delete(item);
	}

	private readonly fire = (): void => {
		this.timer = undefined;
		this.armedAt = Infinity;
		const now = Date.now();
		let next = Infinity;
		for (const [item, at] of this.due) {
			if (at > now) {
				next = Math.min(next, at);
				continue;
			}
			const again = item.check(now);
			if (again === undefined) this.due.delete(item);
			else {
				this.due.set(item, again);
				next = Math.min(next, again);
			}
		}
		if (next !== Infinity) this.arm(next);
	};

	private arm(at: number): void {
		if (this.timer !== undefined) clearTimeout(this.timer);
		this.armedAt = at;
		this.timer = setTimeout(this.fire, Math.max(1, at - Date.now()));
		this.timer.unref?.();
	}
}

/** The chat client's one watchdog: the time limits of every attempt and the bodies left to end by themselves. */
export const chatWatchdog = new Watchdog();
