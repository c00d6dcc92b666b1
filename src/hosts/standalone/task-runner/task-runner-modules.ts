import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The exact version of n8n's task runner package that matches n8n-core 2.41.1. */
export const taskRunnerPackage = '@n8n/task-runner@2.41.1';

/** The parts of `@n8n/task-runner` the in-process runner uses. */
export interface TaskRunnerModules {
	JsTaskRunner: { prototype: object };
	BuiltInsParser: new () => object;
	DataRequestResponseReconstruct: new () => object;
	TaskRunnerNodeTypes: new (descriptions: unknown[]) => object;
	createRequireResolver: (options: {
		allowedBuiltInModules: ReadonlySet<string> | '*';
		allowedExternalModules: ReadonlySet<string> | '*';
		secureModules: boolean;
	}) => unknown;
	AVAILABLE_RPC_METHODS: readonly string[];
}

let loaded: TaskRunnerModules | null | undefined;

/**
 * n8n's JavaScript task runner code (`@n8n/task-runner`), loaded on the first Code run; `null`
 * when the package is not installed. Its `exports` hide the runner's files, so they are
 * required by path from the package's own folder.
 */
export function loadTaskRunnerModules(): TaskRunnerModules | null {
	if (loaded !== undefined) return loaded;
	const requireHere = createRequire(__filename);
	let dist: string;
	try {
		dist = dirname(requireHere.resolve('@n8n/task-runner'));
	} catch {
		loaded = null;
		return loaded;
	}
	const load = (path: string): Record<string, unknown> => requireHere(join(dist, path));
	loaded = {
		JsTaskRunner: load('js-task-runner/js-task-runner.js').JsTaskRunner,
		BuiltInsParser: load('js-task-runner/built-ins-parser/built-ins-parser.js').BuiltInsParser,
		DataRequestResponseReconstruct: load('data-request/data-request-response-reconstruct.js')
			.DataRequestResponseReconstruct,
		TaskRunnerNodeTypes: load('node-types.js').TaskRunnerNodeTypes,
		createRequireResolver: load('js-task-runner/require-resolver.js').createRequireResolver,
		AVAILABLE_RPC_METHODS: load('runner-types.js').AVAILABLE_RPC_METHODS,
	} as TaskRunnerModules;
	return loaded;
}
