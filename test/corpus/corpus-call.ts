/**
 * Which tool of a template the corpus run calls, and with what: the first tool (in this order
 * of kinds) that needs no outside service — Calculator, Think, Wikipedia and SerpAPI (their
 * hosts intercepted), JavaScript Code Tool, a sub-workflow whose nodes all run locally, an HTTP
 * Request Tool with no credential on a fixed public host (intercepted), the In-Memory vector
 * store (its embeddings on the loopback service) — and arguments built from the tool's schema.
 */
import type { AgentTool, JsonSchema, WorkflowExport } from '../../src/index';
import { resolveSubWorkflow } from '../../src/hosts/standalone/sub-workflows/resolve-sub-workflow';
import {
	findSubWorkflowStart,
	subWorkflowPart,
} from '../../src/hosts/standalone/sub-workflows/sub-workflow-part';
import { WorkflowLibrary } from '../../src/hosts/standalone/sub-workflows/workflow-library';

const LC = '@n8n/n8n-nodes-langchain.';

/** n8n-nodes-base node types that compute locally (no network, no credential). */
const LOCAL_NODES = new Set(
	[
		'executeWorkflowTrigger',
		'set',
		'code',
		'if',
		'switch',
		'merge',
		'filter',
		'aggregate',
		'splitOut',
		'summarize',
		'itemLists',
		'markdown',
		'noOp',
		'dateTime',
		'crypto',
		'html',
		'xml',
		'sort',
		'limit',
		'removeDuplicates',
		'renameKeys',
		'stopAndError',
		'executionData',
		'splitInBatches',
	].map((name) => `n8n-nodes-base.${name}`),
);

/** n8n-nodes-base nodes that reach a fixed public host with no credential: the host is intercepted. */
const PUBLIC_HOST_NODES: Record<string, string> = {
	'n8n-nodes-base.hackerNews': 'http://hn.algolia.com',
};

/** Where a sub-workflow's HTTP Request node goes when its URL comes from the model's input. */
export const SAMPLE_URL = 'https://example.com/';

/** The tool chosen for a template's one call. */
export interface CorpusCall {
	tool: AgentTool;
	/** Why it needs no outside service. */
	kind: string;
	args: Record<string, unknown>;
	/** Public origins to intercept before the call (fixed hosts of the tool or its sub-workflow). */
	intercept: string[];
}

/**
 * The call to make for a template, or undefined when every tool needs an outside service (a
 * credentialed API, a vector store server, another workflow that is not in the file).
 */
export function chooseCall(workflow: WorkflowExport, tools: AgentTool[]): CorpusCall | undefined {
	const candidates = tools.flatMap((tool) => {
		const node = workflow.nodes.find((each) => each.name === tool.sourceNodeName);
		if (!node) return [];
		const kind = localKind(workflow, node);
		if (!kind) return [];
		return [{ tool, kind: kind.kind, rank: kind.rank, intercept: kind.intercept ?? [], node }];
	});
	candidates.sort((a, b) => a.rank - b.rank);
	const [best] = candidates;
	if (!best) return undefined;
	return {
		tool: best.tool,
		kind: best.kind,
		args: sampleArguments(best.tool, best.kind),
		intercept: best.intercept,
	};
}

function localKind(
	workflow: WorkflowExport,
	node: WorkflowExport['nodes'][number],
): { kind: string; rank: number; intercept?: string[] } | undefined {
	const type = node.type;
	if (type === `${LC}toolWorkflow` || type === 'n8n-nodes-base.executeWorkflow') {
		const intercept = localSubWorkflow(workflow, node);
		return intercept ? { kind: 'sub-workflow', rank: -1, intercept } : undefined;
	}
	if (type === `${LC}toolCalculator`) return { kind: 'Calculator', rank: 0 };
	if (type === `${LC}toolThink`) return { kind: 'Think', rank: 1 };
	if (type === `${LC}toolWikipedia`) return { kind: 'Wikipedia (nock)', rank: 2 };
	if (type === `${LC}toolSerpApi`) return { kind: 'SerpAPI (nock)', rank: 3 };
	if (type === `${LC}toolCode`) return { kind: 'Code Tool', rank: 4 };
	if (type === `${LC}toolHttpRequest` && !node.credentials) {
		const url = String(node.parameters.url ?? '');
		const origin = /^=?(https:\/\/[a-z0-9.-]+)[/?]/i.exec(url)?.[1];
		return origin && !origin.includes('{')
			? { kind: 'HTTP Request Tool (nock)', rank: 6, intercept: [origin] }
			: undefined;
	}
	if (
		type === `${LC}vectorStoreInMemory` &&
		embeddingsOf(workflow, node.name) === `${LC}embeddingsOpenAi`
	)
		return { kind: 'In-Memory vector store', rank: 7 };
	return undefined;
}

/**
 * When the tool's sub-workflow is in the file and every node of it computes locally or reaches
 * only public hosts with no credential: those hosts (to intercept); else undefined.
 */
function localSubWorkflow(
	workflow: WorkflowExport,
	node: WorkflowExport['nodes'][number],
): string[] | undefined {
	const locator = node.parameters.workflowId;
	const id =
		typeof locator === 'object' && locator !== null
			? String((locator as { value?: unknown }).value ?? '')
			: String(locator ?? '');
	let part: WorkflowExport;
	try {
		const json = node.parameters.workflowJson;
		const { workflow: target } = resolveSubWorkflow(
			node.parameters.source === 'parameter' && typeof json === 'string'
				? { code: JSON.parse(json) }
				: { id: id.includes('$workflow.id') ? 'self' : id },
			{ caller: workflow, callerId: 'self', node, library: WorkflowLibrary.empty() },
		);
		part = subWorkflowPart(target, findSubWorkflowStart(target, 'sub-workflow'));
	} catch {
		return undefined;
	}
	const hosts = new Set<string>();
	for (const each of part.nodes) {
		if (each.credentials) return undefined;
		if (LOCAL_NODES.has(each.type)) continue;
		const fixed = PUBLIC_HOST_NODES[each.type];
		if (fixed) hosts.add(fixed);
		else if (each.type === 'n8n-nodes-base.httpRequest') {
			const url = String(each.parameters.url ?? '');
			hosts.add(/^https:\/\/[a-z0-9.-]+/i.exec(url)?.[0] ?? new URL(SAMPLE_URL).origin);
		} else return undefined;
	}
	return [...hosts];
}

/** The type of the embeddings sub-node feeding `nodeName` (OpenAI's is pointed at the loopback service). */
function embeddingsOf(workflow: WorkflowExport, nodeName: string): string | undefined {
	const source = Object.entries(workflow.connections).find(([, byType]) =>
		(byType.ai_embedding ?? []).some((outputs) =>
			(outputs ?? []).some((connection) => connection.node === nodeName),
		),
	)?.[0];
	return workflow.nodes.find((each) => each.name === source)?.type;
}

/** Arguments for every required (or else every) property of the schema, by type and name. */
function sampleArguments(tool: AgentTool, kind: string): Record<string, unknown> {
	if (kind === 'Calculator') return { input: '2+2*3' };
	if (kind.startsWith('Wikipedia')) return { input: 'Ada Lovelace' };
	// One free-text input to a tool that says it fetches pages: give it a page.
	if (
		/\b(url|website|webpage|web page)\b/i.test(tool.description) &&
		tool.parameters.properties?.input
	)
		return { input: SAMPLE_URL };
	const properties = tool.parameters.properties ?? {};
	const required = tool.parameters.required ?? Object.keys(properties);
	return Object.fromEntries(required.map((key) => [key, sampleValue(key, properties[key])]));
}

function sampleValue(key: string, property: JsonSchema | undefined): unknown {
	const type = Array.isArray(property?.type) ? property?.type[0] : property?.type;
	if (property?.enum && Array.isArray(property.enum)) return property.enum[0];
	if (type === 'number' || type === 'integer') return 2;
	if (type === 'boolean') return true;
	if (type === 'array') return [];
	if (type === 'object' || type === undefined) return {};
	if (/url/i.test(key)) return SAMPLE_URL;
	if (/date/i.test(key)) return '2026-01-15';
	if (/mail/i.test(key)) return 'someone@example.com';
	return 'hello';
}
