/** One pending deadline of a {@link DeadlineQueue}. */
export interface Deadline {
	/** Stops the deadline (the work finished in time); idempotent. */
	cancel(): void;
}

/** A pending deadline is its own handle: no closure per deadline. */
class Entry implements Deadline {
	constructor(
		readonly at: number,
		public expire: (() => void) | undefined,
		private readonly queue: DeadlineQueue,
	) {}

	cancel(): void {
		if (this.expire === undefined) return;
		this.expire = undefined;
		this.queue.dropSettledHead();
	}
}

/**
 * Deadlines of one length (a tool time limit) behind one timer. A timer per call costs as
 * much as a tenth of a fast node's run (Node creates and drops the timer list of that
 * duration each time); here a call only appends an entry. All deadlines have the same length,
 * so they expire in the order they were added: the queue is a FIFO whose head holds the
 * next deadline, and the one timer is set for it. The timer keeps the process alive only
 * while a deadline is pending (like a timer per call would), so a script ends at once after
 * its last call.
 */
export class DeadlineQueue {
	private readonly entries: Entry[] = [];
	private head = 0;
	private timer: NodeJS.Timeout | undefined;
	private timerAt = Number.POSITIVE_INFINITY;

	constructor(readonly lengthMs: number) {}

	/** Calls `expire` once `lengthMs` from now, unless the deadline is cancelled first. */
	add(expire: () => void): Deadline {
		const entry = new Entry(Date.now() + this.lengthMs, expire, this);
		this.entries.push(entry);
		if (this.timer === undefined) this.schedule(entry.at);
		else this.timer.ref();
		return entry;
	}

	/** Pending (not cancelled, not expired) deadlines, for tests. */
	get size(): number {
		let count = 0;
		for (let index = this.head; index < this.entries.length; index++)
			if (this.entries[index].expire) count++;
		return count;
	}

	/** Drops the settled deadlines at the head (after a cancel: {@link Entry}); with none left, the timer stops holding the process. */
	dropSettledHead(): void {
		while (this.head < this.entries.length && !this.entries[this.head].expire) this.head++;
		if (this.head === this.entries.length) {
			this.entries.length = 0;
			this.head = 0;
			this.timer?.unref();
		} else if (this.head > 1024 && this.head * 2 > this.entries.length) {
			this.entries.splice(0, this.head);
			this.head = 0;
		}
	}

	private schedule(at: number): void {
		this.timerAt = at;
		this.timer = setTimeout(() => this.fire(), Math.max(0, at - Date.now()));
		if (this.head === this.entries.length) this.timer.unref();
	}

	private fire(): void {
		this.timer = undefined;
		this.timerAt = Number.POSITIVE_INFINITY;
		const now = Date.now();
		while (this.head < this.entries.length) {
			const entry = this.entries[this.head];
			if (entry.expire && entry.at > now) break;
			this.head++;
			const expire = entry.expire;
			entry.expire = undefined;
			expire?.();
		}
		this.dropSettledHead();
		if (this.head < this.entries.length && this.timerAt === Number.POSITIVE_INFINITY)
			this.schedule(this.entries[this.head].at);
	}
}
