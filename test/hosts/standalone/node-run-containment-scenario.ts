/**
 * One scenario of `containNodeRun` in a process of its own (the test runner has process-level
 * error listeners of its own, which would see every stray error too). Prints one JSON line per
 * outcome on stdout; the scenario's name is the first argument.
 */
import { StrayNodeError } from '../../../src/errors/stray-node-error';
import {
	containNodeRun,
	onUncontainedError,
} from '../../../src/hosts/standalone/node-run-containment';

const milvus = { name: 'Milvus knowledge', type: '@n8n/n8n-nodes-langchain.vectorStoreMilvus' };
const qdrant = { name: 'Qdrant store', type: '@n8n/n8n-nodes-langchain.vectorStoreQdrant' };
const print = (outcome: object) => process.stdout.write(`${JSON.stringify(outcome)}\n`);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A run whose library rejects a promise nobody awaits, then throws in a timer; its own promise never settles. */
const strayRun = () =>
	new Promise<string>(() => {
		void Promise.reject(new Error('14 UNAVAILABLE: connect ECONNREFUSED 127.0.0.1:19530'));
	});

function outcome(promise: Promise<unknown>) {
	return promise.then(
		(value) => ({ value }),
		(error: unknown) => ({
			error: error instanceof StrayNodeError ? 'StrayNodeError' : String(error),
			code: (error as { code?: string }).code,
			node: (error as { nodeName?: string }).nodeName,
			message: (error as Error).message,
		}),
	);
}

const scenarios: Record<string, () => Promise<void>> = {
	async attributed() {
		const quiet = containNodeRun(qdrant, async () => {
			await wait(100);
			return 'qdrant answered';
		});
		const thrown = containNodeRun(milvus, async () => {
			setTimeout(() => {
				throw new Error('socket hang up');
			}, 10);
			return await new Promise<string>(() => undefined);
		});
		print(await outcome(containNodeRun(milvus, strayRun)));
		print(await outcome(thrown));
		print(await outcome(quiet));
		print({ alive: true });
	},
	async unattributed() {
		const runs = [
			containNodeRun(milvus, () => new Promise(() => undefined)),
			containNodeRun(qdrant, () => new Promise(() => undefined)),
		];
		// Raised outside both runs' async contexts, while they are in flight.
		setImmediate(() => void Promise.reject(new Error('stray from nowhere')));
		for (const run of runs) print(await outcome(run));
		print({ alive: true });
	},
	async late() {
		process.on('warning', (warning) =>
			print({ warning: warning.message, code: (warning as { code?: string }).code }),
		);
		print(
			await outcome(
				containNodeRun(milvus, async () => {
					setTimeout(() => void Promise.reject(new Error('pool closed')), 50);
					return 'answered';
				}),
			),
		);
		await wait(200);
		print({ alive: true });
	},
	async lateRedacted() {
		process.on('warning', (warning) => print({ warning: warning.message }));
		const redact = (text: string) => text.replaceAll('pw-secret-123', '[REDACTED]');
		print(
			await outcome(
				containNodeRun(
					milvus,
					async () => {
						setTimeout(
							() => void Promise.reject(new Error('auth failed for user:pw-secret-123')),
							50,
						);
						return 'answered';
					},
					undefined,
					redact,
				),
			),
		);
		await wait(200);
		print({ alive: true });
	},
	async notOurs() {
		print(await outcome(containNodeRun(milvus, async () => 'answered')));
		// No node run's, nothing in flight: Node's own behaviour (the process ends, exit 1).
		setTimeout(() => {
			throw new Error('a bug that is not a node run');
		}, 10);
		await wait(200);
		print({ alive: true });
	},
	async handler() {
		onUncontainedError((error, origin) => {
			print({ handled: (error as Error).message, origin });
		});
		print(await outcome(containNodeRun(milvus, async () => 'answered')));
		void Promise.reject(new Error('uncontained'));
		await wait(100);
		print({ alive: true });
	},
};

void scenarios[process.argv[2]]();
