import {
	getSchemaBaseDirs,
	setSchemaBaseDirs,
	validateWorkflow,
	type ValidationResult,
	type WorkflowBuilder,
	type WorkflowJSON,
} from '@n8n/workflow-sdk';
import type { NodeCatalog } from '../catalog/node-catalog';
import type { BuildIssue, BuildIssueSource } from './build-issue';

/**
 * The SDK's own checks: its graph plugins on the builder (`builder.validate`: disconnected
 * nodes, IF / Switch / Merge wiring, agent prompts, tool parameters…) and `validateWorkflow` on
 * the JSON with the catalog as node types (versions, required sub-node inputs, port indexes) and
 * the generated zod schemas of the catalog's packages for parameters. The schema folders are a
 * process-wide SDK setting: set for this call only (synchronous, so no other check sees them).
 */
export function checkWithSdk(
	builder: WorkflowBuilder,
	json: WorkflowJSON,
	catalog: NodeCatalog,
): BuildIssue[] {
	const nodeTypesProvider = catalog.nodeTypesProvider();
	const graph = builder.validate({ nodeTypesProvider });
	const previous = getSchemaBaseDirs();
	setSchemaBaseDirs(catalog.definitionDirs);
	let schema: ValidationResult;
	try {
		schema = validateWorkflow(json, { nodeTypesProvider });
	} finally {
		setSchemaBaseDirs(previous);
	}
	const stickies = new Set(
		json.nodes
			.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
			.map((node) => node.name ?? ''),
	);
	// Both report disconnected nodes; the graph plugin's message is the one kept.
	const schemaIssues = fromResult(schema, 'schema', stickies).filter(
		(issue) => issue.code !== 'DISCONNECTED_NODE',
	);
	return [...fromResult(graph, 'graph', stickies), ...schemaIssues];
}

function fromResult(
	result: ValidationResult,
	source: BuildIssueSource,
	stickies: Set<string>,
): BuildIssue[] {
	return [...result.errors, ...result.warnings].map((found) => {
		const path =
			('parameterPath' in found ? found.parameterPath : undefined) ??
			('parameterName' in found ? found.parameterName : undefined);
		// A node nothing connects to never runs: worth telling the model (the SDK calls it
		// informational); a sticky note or a missing trigger is not.
		const disconnected = found.code === 'DISCONNECTED_NODE';
		const severity =
			disconnected && !(found.nodeName && stickies.has(found.nodeName))
				? 'warning'
				: found.severity === 'informational' || found.code === 'MISSING_TRIGGER' || disconnected
					? 'info'
					: found.severity;
		return {
			severity,
			source,
			code: found.code,
			node: found.nodeName,
			path: path ?? undefined,
			message: found.message,
		};
	});
}
