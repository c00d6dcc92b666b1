/**
 * A push-to-pull bridge: a producer pushes items (from a callback), a consumer iterates them
 * as they arrive; `close` ends the iteration after the pushed items, `fail` ends it with an
 * error.
 */
export class PartQueue<T> {
	private readonly items: T[] = [];
	private waiting: (() => void) | undefined;
	private ended = false;
	private failure: { error: unknown } | undefined;

	push(item: T): void {
		this.items.push(item);
		this.wake();
	}

	close(): void {
		this.ended = true;
		this.wake();
	}

	fail(error: unknown): void {
		this.failure = { error };
		this.wake();
	}

	/** @throws the error given to `fail`, once the items before it were taken */
	async *drain(): AsyncGenerator<T, void, undefined> {
		for (;;) {
			while (this.items.length > 0) yield this.items.shift() as T;
			if (this.failure) throw this.failure.error;
			if (this.ended) return;
			await new Promise<void>((resolve) => (this.waiting = resolve));
		}
	}

	private wake(): void {
		const waiting = this.waiting;
		this.waiting = undefined;
		waiting?.();
	}
}
