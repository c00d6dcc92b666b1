import { ChatAbortedError } from '../../errors/chat-aborted-error';
import { ChatTimeoutError, type ChatTimeoutPhase } from '../../errors/chat-timeout-error';
import { ToolbridgeError } from '../../errors/toolbridge-error';
import type { ChatTimeLimits } from '../chat-time-limits';
import { returnAbortController, takeAbortController } from './abort-controller-pool';
import { connectionErrorFrom } from './connection-error-from';
import { chatWatchdog, type Watched } from './watchdog';

/** The time limits of one attempt, in ms (0 = none), and the whole call's deadline (epoch ms; `Infinity` = none). */
export interface AttemptLimits extends ChatTimeLimits {
	/** When the call's `totalTimeoutMs` runs out, shared by all its attempts. */
	deadline: number;
}

/** Which limit ran out, and its value. */
interface Expired {
	phase: ChatTimeoutPhase;
	timeoutMs: number;
}

/**
 * One attempt's abort controller, linked to the caller's signal, and its time limits. Reads
 * only stamp `lastActivity`; the shared {@link chatWatchdog} checks the stamps at the earliest
 * moment a limit could run out and asks again later if nothing ran out (re-arming a timer
 * per read cost ~0.3× of a bare round trip in the loop bench; a timer per attempt, a few %).
 */
export class AttemptControl implements Watched {
	private readonly controller = takeAbortController();
	private timedOut: Expired | undefined;
	private readonly startedAt = Date.now();
	private lastActivity = this.startedAt;
	private headers = false;
	private firstPart = false;
	private paused = false;
	private disposed = false;
	private readonly onOuterAbort = () => this.controller.abort();

	constructor(
		private readonly outer: AbortSignal | undefined,
		private readonly limits: AttemptLimits,
	) {
		outer?.addEventListener('abort', this.onOuterAbort, { once: true });
		const first = this.nextCheck(this.startedAt);
		if (first !== undefined) chatWatchdog.watch(this, first);
	}

	/** The signal to hand to fetch: aborted by the caller's signal, a limit that ran out, or {@link dispose}. */
	get signal(): AbortSignal {
		return this.controller.signal;
	}

	/** The response headers arrived: from now on the stream limits apply. */
	headersReceived(): void {
		this.headers = true;
		this.lastActivity = Date.now();
	}

	/** Bytes (or the end) arrived. */
	activity(): void {
		this.lastActivity = Date.now();
	}

	/** A part goes to the consumer: limits wait until it asks for the next one. */
	pause(): void {
		this.firstPart = true;
		this.paused = true;
	}

	/** The consumer asks for the next part: the limits run again. */
	resume(): void {
		this.paused = false;
		this.lastActivity = Date.now();
	}

	/** Called by the watchdog when this attempt is due: aborts it if a limit ran out, else says when to look again. */
	check(now: number): number | undefined {
		if (this.disposed) return undefined;
		const expired = this.expired(now);
		if (!expired) return this.nextCheck(now);
		this.timedOut = expired;
		this.controller.abort();
		return undefined;
	}

	/** The limit that has run out at `now`, if any. */
	private expired(now: number): Expired | undefined {
		const { firstTokenTimeoutMs, deadline, totalTimeoutMs } = this.limits;
		// Counted even while the consumer holds a part: it bounds the call, not the stream's pace.
		if (now >= deadline) return { phase: 'total', timeoutMs: totalTimeoutMs };
		if (firstTokenTimeoutMs > 0 && !this.firstPart && now - this.startedAt >= firstTokenTimeoutMs)
			return { phase: 'first-token', timeoutMs: firstTokenTimeoutMs };
		const inactivity = this.inactivityLimit();
		if (!this.paused && inactivity.timeoutMs > 0 && now - this.lastActivity >= inactivity.timeoutMs)
			return inactivity;
		return undefined;
	}

	private inactivityLimit(): Expired {
		const { timeoutMs, stallTimeoutMs } = this.limits;
		if (!this.headers) return { phase: 'response', timeoutMs };
		if (this.firstPart && stallTimeoutMs > 0) return { phase: 'stall', timeoutMs: stallTimeoutMs };
		return { phase: 'stream', timeoutMs };
	}

	/** The earliest moment a limit could run out (epoch ms; `undefined` when no limit applies). */
	private nextCheck(now: number): number | undefined {
		let at = this.limits.deadline;
		const { firstTokenTimeoutMs, timeoutMs, stallTimeoutMs } = this.limits;
		if (firstTokenTimeoutMs > 0 && !this.firstPart)
			at = Math.min(at, this.startedAt + firstTokenTimeoutMs);
		// The stall limit may differ from the response/stream one: take the shortest that may apply.
		const inactivity =
			timeoutMs > 0 && stallTimeoutMs > 0
				? Math.min(timeoutMs, stallTimeoutMs)
				: timeoutMs > 0
					? timeoutMs
					: stallTimeoutMs;
		if (inactivity > 0) at = Math.min(at, (this.paused ? now : this.lastActivity) + inactivity);
		return at === Infinity ? undefined : Math.max(at, now + 1);
	}

	/**
	 * What the attempt failed with, as this package's error: a limit that ran out, the
	 * caller's abort, a broken connection; our own errors (and anything else) pass through.
	 */
	translate(error: unknown, url: string): unknown {
		if (this.timedOut) return new ChatTimeoutError(this.timedOut.timeoutMs, this.timedOut.phase);
		if (this.outer?.aborted) return new ChatAbortedError({ cause: this.outer.reason });
		if (ToolbridgeError.isInstance(error)) return error;
		return connectionErrorFrom(error, url) ?? error;
	}

	/** Ends the attempt (again: no effect); `abort` aborts its request, otherwise its controller goes to the next attempt. */
	dispose(abort: boolean): void {
		if (this.disposed) return;
		this.disposed = true;
		chatWatchdog.unwatch(this);
		this.outer?.removeEventListener('abort', this.onOuterAbort);
		if (abort && !this.controller.signal.aborted) this.controller.abort();
		returnAbortController(this.controller);
	}
}
