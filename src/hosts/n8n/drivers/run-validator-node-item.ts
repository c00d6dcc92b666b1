import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { ValidatorError } from '../../../agent/modes/validator/validator-error';
import { validatorConfigFor } from '../../../agent/modes/validator/validator-config-for';
import { runValidator } from '../../../agent/modes/validator/run-validator';
import type { CallModel } from '../../../agent/call-model-step';
import { modelCallerOf, modelSourceNotes } from '../item-run/read-agent-node-settings';
import { openNodeItem } from './open-node-item';
import { validatorTranscript } from '../../../agent/modes/validator/validator-transcript';
import { readValidatorSettings } from '../../../node-settings/read-mode-settings';
import { readItemBatching, runItemBatches } from '../item-run/run-item-batches';

/** Test seam: replaces the chat client. */
export interface RunValidatorNodeItemOptions {
	callModel?: CallModel;
}

/**
 * Runs validator mode for one input item: the model must call the chosen tool (or any
 * connected tool), its arguments are checked against the tool's JSON Schema and the
 * errors sent back until they pass or "Max Attempts" are used, then the tool runs once
 * (not with "Validate Only"). Output: `{ tool, arguments, result, attempts }`, plus
 * `usage` and `attemptLog` with "Return Intermediate Steps", `debugLog` with "Debug Log".
 *
 * @throws {ValidatorError} when the attempts are exhausted, the tool fails or the run is aborted.
 * @throws {AgentConfigurationError} for bad settings (no tool, unknown tool name …).
 * @throws the chat client's errors when a model call fails.
 */
export async function runValidatorNodeItem(
	context: IExecuteFunctions,
	itemIndex: number,
	options: RunValidatorNodeItemOptions = {},
): Promise<INodeExecutionData> {
	const { settings, prompt, redactor, tools, sink, memory, openStream, history, trace } =
		await openNodeItem(context, itemIndex);
	const validator = readValidatorSettings((name, fallback) =>
		context.getNodeParameter(name, itemIndex, fallback),
	);
	openStream();
	if (settings.debugLog)
		for (const line of [...modelSourceNotes(settings), ...prompt.notes]) sink.debug(line);
	const { state, result } = await trace
		.run(() =>
			runValidator({
				input: {
					// The full loop's model settings, from the one helper both hosts use (validator parity).
					config: validatorConfigFor(settings.config, validator, tools),
					prompt: prompt.prompt,
					history,
				},
				tools,
				callModel: trace.callModel(options.callModel ?? modelCallerOf(settings)),
				signal: context.getExecutionCancelSignal?.(),
				onEvent: sink.onEvent,
				debug: settings.debugLog,
				redactor,
				toolTimeoutMs: settings.toolTimeoutMs,
				runTimeoutMs: settings.runTimeoutMs,
			}),
		)
		.catch((error: unknown) => {
			trace.fail(error);
			sink.end();
			throw redactor.error(error);
		});
	trace.end({ usage: result.usage });
	// The turn as the next one (validator or full loop) reads it: the question, the accepted call, its result.
	await memory.save(validatorTranscript(prompt.prompt, state));
	sink.end();

	const json: IDataObject = { tool: result.tool, arguments: result.arguments as IDataObject };
	if (result.result !== undefined) json.result = result.result as IDataObject;
	json.attempts = result.attempts;
	if (settings.returnIntermediateSteps) {
		json.usage = result.usage as unknown as IDataObject;
		json.attemptLog = result.attemptLog as unknown as IDataObject[];
	}
	if (settings.debugLog) json.debugLog = sink.debugLog;
	if (memory.warnings.length > 0) json.warnings = memory.warnings;
	return { json: redactor.value(json), pairedItem: { item: itemIndex } };
}

/**
 * Validator mode for every input item, in batches ("Batch Processing"). A failed item
 * becomes `{ error, code, attempts, attemptLog }` when the node continues on fail; any
 * other failure goes to `failItem` (which returns the node's error item or throws the node
 * error).
 */
export async function runValidatorItems(
	context: IExecuteFunctions,
	failItem: (error: unknown, itemIndex: number) => INodeExecutionData,
	options: RunValidatorNodeItemOptions = {},
): Promise<INodeExecutionData[]> {
	return await runItemBatches(
		context.getInputData().length,
		async (itemIndex) => {
			try {
				return await runValidatorNodeItem(context, itemIndex, options);
			} catch (error) {
				if (error instanceof ValidatorError && context.continueOnFail())
					return { json: validatorErrorOutput(error), pairedItem: { item: itemIndex } };
				return failItem(error, itemIndex);
			}
		},
		{ ...readItemBatching(context), signal: context.getExecutionCancelSignal?.() },
	);
}

/** The continue-on-fail item of a failed validator run: the message, code and every attempt's errors. */
export function validatorErrorOutput(error: ValidatorError): IDataObject {
	return {
		error: error.message,
		code: error.code,
		attempts: error.attempts.length,
		attemptLog: error.attempts as unknown as IDataObject[],
		usage: error.usage as unknown as IDataObject,
	};
}
