import { AsyncLocalStorage } from 'node:async_hooks';
import { StrayNodeError, strayMessage } from '../../errors/stray-node-error';

/** One contained run: the node it runs and how to end it with a stray error. */
interface ContainedRun {
	nodeName: string;
	nodeType: string;
	ended: boolean;
	fail(error: unknown): void;
	/** Redacts the text of a late error's warning (the run's secrets), when the caller has them. */
	redact?: (text: string) => string;
}

/** What a stray error that belongs to no node run is handed to (see {@link onUncontainedError}). */
export type UncontainedErrorHandler = (error: unknown, origin: 'exception' | 'rejection') => void;

const runs = new AsyncLocalStorage<ContainedRun>();
const inFlight = new Set<ContainedRun>();
let installed = false;
let uncontainedHandler: UncontainedErrorHandler | undefined;

/**
 * Runs `work` (one node run, one call of a tool a node supplied, one `supplyData`) so that an
 * error its node or the node's client library throws or rejects outside the run's own promise
 * (a gRPC client's connect promise nobody awaits, a socket's `error` event with no listener)
 * ends this run instead of the process: the result rejects with a {@link StrayNodeError}
 * naming the node, and `onStray` is told (to cancel the run's execution, close its sockets).
 * `redact`, when given, is applied to the warning of an error that comes after the run ended
 * (called only then, so a caller may build its redactor lazily).
 *
 * How: process-level `uncaughtException` / `unhandledRejection` listeners, installed on the
 * first contained run and kept, attribute each stray error to the run whose async context
 * raised it (AsyncLocalStorage). A stray error no run's context claims while runs are in
 * flight fails all of them (the process keeps serving). One raised in the context of a run
 * that has already ended is a process warning (`TOOLBRIDGE_LATE_NODE_ERROR`). Anything else —
 * not from a node run, nothing in flight — is not ours: it goes to the handler set with
 * {@link onUncontainedError}, else to the process's other listeners, else it ends the process
 * as Node would have.
 *
 * @throws StrayNodeError (as a rejection) when a stray error ends the run; otherwise whatever
 *   `work` rejects with.
 */
export function containNodeRun<T>(
	node: { name: string; type: string },
	work: () => Promise<T>,
	onStray?: (error: StrayNodeError) => void,
	redact?: (text: string) => string,
): Promise<T> {
	installListeners();
	return new Promise<T>((resolve, reject) => {
		const run: ContainedRun = {
			nodeName: node.name,
			nodeType: node.type,
			ended: false,
			redact,
			fail: (cause) => {
				if (run.ended) return;
				const error = new StrayNodeError({ nodeName: node.name, nodeType: node.type, cause });
				end();
				onStray?.(error);
				reject(error);
			},
		};
		const end = (): void => {
			run.ended = true;
			inFlight.delete(run);
		};
		inFlight.add(run);
		let result: Promise<T>;
		try {
			result = runs.run(run, work);
		} catch (error) {
			end();
			reject(error);
			return;
		}
		// After a stray error ended the run, what the work still settles with is dropped.
		result.then(
			(value) => {
				if (run.ended) return;
				end();
				resolve(value);
			},
			(error: unknown) => {
				if (run.ended) return;
				end();
				reject(error);
			},
		);
	});
}

/**
 * Sets who is told about a stray error that belongs to no node run while none is in flight
 * (the CLI prints it as one line and exits 1); undefined restores the default (the process's
 * other listeners, else Node's own crash). Installs the process listeners.
 */
export function onUncontainedError(handler: UncontainedErrorHandler | undefined): void {
	uncontainedHandler = handler;
	installListeners();
}

function onException(error: unknown): void {
	onStrayError(error, 'exception');
}

function onRejection(reason: unknown): void {
	onStrayError(reason, 'rejection');
}

function onStrayError(error: unknown, origin: 'exception' | 'rejection'): void {
	const run = runs.getStore();
	if (run && !run.ended) return run.fail(error);
	if (!run && inFlight.size > 0) {
		for (const each of [...inFlight]) each.fail(error);
		return;
	}
	if (run) {
		const message = `Node "${run.nodeName}" (${run.nodeType}) raised an error after its run had ended: ${strayMessage(error)}`;
		process.emitWarning(run.redact ? run.redact(message) : message, {
			code: 'TOOLBRIDGE_LATE_NODE_ERROR',
		});
		return;
	}
	passOn(error, origin);
}

/** A stray error that is not a node run's: as if these listeners were not there. */
function passOn(error: unknown, origin: 'exception' | 'rejection'): void {
	if (uncontainedHandler) return uncontainedHandler(error, origin);
	const event = origin === 'exception' ? 'uncaughtException' : 'unhandledRejection';
	// Other listeners were called as well: they decide.
	if (process.listenerCount(event) > 1) return;
	process.off('uncaughtException', onException);
	process.off('unhandledRejection', onRejection);
	installed = false;
	process.nextTick(() => {
		throw error;
	});
}

function installListeners(): void {
	if (installed) return;
	process.on('uncaughtException', onException);
	process.on('unhandledRejection', onRejection);
	installed = true;
}
