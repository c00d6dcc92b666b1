import { randomUUID } from 'node:crypto';
import type { IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import { loadTaskRunnerModules, taskRunnerPackage } from './task-runner-modules';
import { taskDataResponse, type RunnerTaskData } from './task-data-response';

/** n8n's default task time limit (`N8N_RUNNERS_TASK_TIMEOUT`: 300 s). */
const defaultTaskTimeoutSeconds = 300;

type StartRunnerTask = IWorkflowExecuteAdditionalData['startRunnerTask'];
type RunnerStatus = { available: true } | { available: false; reason?: string };

/** The part of n8n's `JsTaskRunner` this host calls. */
interface JsTaskRunnerLike {
	executeTask(
		task: { taskId: string; settings: unknown },
		signal: AbortSignal,
	): Promise<{ result: unknown; customData?: Record<string, string>; staticData?: object }>;
}

let runner: JsTaskRunnerLike | undefined;
const tasks = new Map<string, RunnerTaskData>();

/** The list a `NODE_FUNCTION_ALLOW_*` variable gives, as n8n's runner reads it. */
function moduleAllowList(value: string | undefined): ReadonlySet<string> | '*' {
	if (value === '*') return '*';
	return new Set(
		(value ?? '')
			.split(',')
			.map((name) => name.trim())
			.filter(Boolean),
	);
}

/**
 * n8n's own `JsTaskRunner` (node:vm context, n8n's data proxy, its require allow-list
 * `NODE_FUNCTION_ALLOW_BUILTIN` / `NODE_FUNCTION_ALLOW_EXTERNAL`, its code wrapper) in this
 * process, with no broker and no websocket: what the n8n server answers the runner (task data,
 * node types, helper calls) is answered here from the task itself. Made without its constructor
 * (which connects to a broker) and without its `preventPrototypePollution` (which freezes the
 * globals of the whole process — right for n8n's dedicated runner process, not for ours).
 */
function inProcessRunner(): JsTaskRunnerLike | undefined {
	if (runner) return runner;
	const modules = loadTaskRunnerModules();
	if (!modules) return undefined;
	const timeout = Number(process.env.N8N_RUNNERS_TASK_TIMEOUT ?? defaultTaskTimeoutSeconds);
	runner = Object.assign(Object.create(modules.JsTaskRunner.prototype) as JsTaskRunnerLike, {
		taskType: 'javascript',
		name: 'toolbridge in-process JS runner',
		taskTimeout: Number.isFinite(timeout) && timeout > 0 ? timeout : defaultTaskTimeoutSeconds,
		mode: 'secure',
		builtInsParser: new modules.BuiltInsParser(),
		taskDataReconstruct: new modules.DataRequestResponseReconstruct(),
		nodeTypes: new modules.TaskRunnerNodeTypes([]),
		requireResolver: modules.createRequireResolver({
			allowedBuiltInModules: moduleAllowList(process.env.NODE_FUNCTION_ALLOW_BUILTIN),
			allowedExternalModules: moduleAllowList(process.env.NODE_FUNCTION_ALLOW_EXTERNAL),
			secureModules: true,
		}),
		requestData: async (taskId: string) => taskDataResponse(taskOf(taskId)),
		requestNodeTypes: async (taskId: string, wanted: Array<{ name: string; version: number }>) => {
			const { nodeTypes } = taskOf(taskId).workflow;
			return wanted.map(({ name, version }) => ({
				...nodeTypes.getByNameAndVersion(name, version).description,
				name,
			}));
		},
		makeRpcCall: async (taskId: string, name: string, parameters: unknown[]) => {
			if (!modules.AVAILABLE_RPC_METHODS.includes(name))
				throw new Error(`Method "${name}" is not allowed`);
			const functions = taskOf(taskId).executeFunctions as unknown as Record<string, unknown>;
			let owner: Record<string, unknown> = functions;
			let target: unknown = functions;
			for (const part of name.split('.')) {
				owner = target as Record<string, unknown>;
				target = owner?.[part];
			}
			if (typeof target !== 'function') throw new Error(`Method "${name}" not found`);
			return await (target as (...args: unknown[]) => unknown).apply(owner, parameters);
		},
	});
	return runner;
}

function taskOf(taskId: string): RunnerTaskData {
	const task = tasks.get(taskId);
	if (!task) throw new Error(`Unknown task ${taskId}`);
	return task;
}

/**
 * `additionalData.startRunnerTask` for the standalone host: n8n-core's Code node and n8n's Code
 * Tool hand their JavaScript here (`BaseExecuteContext.startJob`), and it runs in this process
 * through n8n's own runner code (see {@link inProcessRunner}). Resolves `{ ok: false, error }`
 * for Python (n8n's Python runner ships only with n8n's Docker image) and when
 * `@n8n/task-runner` is not installed.
 */
export const startInProcessRunnerTask: StartRunnerTask = async (
	additionalData,
	jobType,
	settings,
	executeFunctions,
	inputData,
	node,
	workflow,
	runExecutionData,
	runIndex,
	itemIndex,
	activeNodeName,
	connectionInputData,
	siblingParameters,
	mode,
	envProviderState,
	executeData,
) => {
	const status = inProcessRunnerStatus(jobType);
	if (!status.available) return { ok: false, error: new Error(status.reason) } as never;
	const jsRunner = inProcessRunner()!;
	const taskId = randomUUID();
	tasks.set(taskId, {
		additionalData,
		executeFunctions,
		inputData,
		node,
		workflow,
		runExecutionData,
		runIndex,
		itemIndex,
		activeNodeName,
		connectionInputData,
		siblingParameters,
		mode,
		envProviderState,
		executeData,
	});
	const timeoutMs = (jsRunner as unknown as { taskTimeout: number }).taskTimeout * 1000;
	const cancel = executeFunctions.getExecutionCancelSignal?.();
	const signal = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(cancel ? [cancel] : [])]);
	try {
		const { result, customData, staticData } = await jsRunner.executeTask(
			{ taskId, settings },
			signal,
		);
		if (customData) {
			runExecutionData.resultData.metadata = {
				...runExecutionData.resultData.metadata,
				...customData,
			};
		}
		if (staticData) workflow.overrideStaticData(staticData as never);
		return { ok: true, result } as never;
	} catch (error) {
		return { ok: false, error } as never;
	} finally {
		tasks.delete(taskId);
	}
};

/** `additionalData.getRunnerStatus` for the standalone host: JavaScript in-process, no Python. */
export function inProcessRunnerStatus(taskType: string): RunnerStatus {
	if (taskType !== 'javascript') {
		return {
			available: false,
			reason: `${taskType === 'python' ? 'Python' : `"${taskType}"`} code needs n8n's ${taskType} task runner, which ships only with n8n's Docker image; the standalone host runs JavaScript only.`,
		};
	}
	if (!loadTaskRunnerModules()) {
		return {
			available: false,
			reason: `JavaScript code runs in n8n's task runner code, which is not installed: npm install ${taskRunnerPackage} (n8n-toolbridge installs it).`,
		};
	}
	return { available: true };
}
