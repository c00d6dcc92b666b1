import type { IExecuteFunctions } from 'n8n-workflow';
import type { Redactor } from '../../../chat/redactor';
import { captureContentFrom, startAgentTrace, type AgentTrace } from '../../../tracing/agent-trace';
import type { AgentNodeSettings } from '../../../node-settings/agent-node-settings';

/**
 * The spans of one item's agent run inside n8n (see `startAgentTrace`), when n8n's tracing (or
 * another OpenTelemetry SDK) is on. n8n never makes its node spans the active context, so these
 * are root traces of their own: the `invoke_agent` span carries `n8n.workflow.id`,
 * `n8n.execution.id`, `n8n.node.name` and `n8n.node.type` for a backend to join them with
 * n8n's `workflow.execute` trace.
 */
export function traceNodeAgent(
	context: IExecuteFunctions,
	settings: AgentNodeSettings,
	options: {
		prompt: unknown;
		redactor: Redactor;
		/** More attributes of the `invoke_agent` span (the engine driver's entry number). */
		attributes?: Record<string, string | number | boolean | undefined>;
	},
): AgentTrace {
	const node = context.getNode();
	return startAgentTrace({
		agentName: node.name,
		model: settings.config.model,
		baseUrl: settings.connection?.baseUrl,
		captureContent: captureContentFrom(),
		redactor: options.redactor,
		// A prompt with files is left out (it may hold whole files as data URLs).
		prompt: typeof options.prompt === 'string' ? options.prompt : undefined,
		attributes: {
			'n8n.workflow.id': context.getWorkflow?.().id,
			'n8n.execution.id': context.getExecutionId?.(),
			'n8n.node.name': node.name,
			'n8n.node.type': node.type,
			...options.attributes,
		},
	});
}
