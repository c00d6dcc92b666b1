import { parseWorkflowCodeToBuilder, type WorkflowBuilder } from '@n8n/workflow-sdk';
import { prepareCode } from './prepare-code';
import { WorkflowCodeError } from './workflow-code-error';

/** Workflow code read into the SDK's builder. */
export interface ParsedWorkflowCode {
	builder: WorkflowBuilder;
	/** The code block as the model wrote it (imports kept), for line references. */
	code: string;
}

/**
 * Reads a model's answer (or plain code) into the SDK's `WorkflowBuilder` without executing
 * it: {@link prepareCode}'s checks, then the SDK's own AST interpreter
 * (`parseWorkflowCodeToBuilder`: acorn plus a tree walk over an allow-list; no `Function`,
 * `eval` or `vm`). Every failure is a {@link WorkflowCodeError}, never a raw TypeError or
 * RangeError from inside the SDK.
 *
 * @throws {WorkflowCodeError} when the code is refused or does not export a workflow.
 */
export function parseWorkflowCode(text: string): ParsedWorkflowCode {
	const prepared = prepareCode(text);
	let builder: unknown;
	try {
		builder = parseWorkflowCodeToBuilder(prepared);
	} catch (error) {
		throw sdkError(error);
	}
	if (!isWorkflowBuilder(builder))
		throw new WorkflowCodeError(
			'NO_WORKFLOW',
			'The code does not export a workflow: end it with export default workflow(id, name).add(…).',
		);
	return { builder, code: prepared };
}

function isWorkflowBuilder(value: unknown): value is WorkflowBuilder {
	const candidate = value as Partial<WorkflowBuilder> | null;
	return (
		typeof candidate === 'object' &&
		candidate !== null &&
		typeof candidate.toJSON === 'function' &&
		typeof candidate.validate === 'function' &&
		typeof candidate.getNode === 'function'
	);
}

/** The SDK's message without its code frame (`> 2 | let b = 2;`), and the line the frame points at. */
function sdkError(error: unknown): WorkflowCodeError {
	const raw = error instanceof Error ? error.message : String(error);
	const [head = ''] = raw.replace(/^Failed to parse workflow code:\s*/, '').split(/\n\s*\n/);
	const message = head.replace(/\s+/g, ' ').trim().slice(0, 500);
	const pointed = /^>\s*(\d+)\s*\|/m.exec(raw) ?? /\((\d+):\d+\)/.exec(raw);
	const known = error instanceof SyntaxError;
	return new WorkflowCodeError(
		'SDK_REJECTED',
		known ? message : `The workflow code could not be read: ${message}`,
		pointed ? Number(pointed[1]) : undefined,
		{ cause: error },
	);
}
