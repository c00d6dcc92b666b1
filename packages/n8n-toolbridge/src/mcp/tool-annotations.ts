import type { INode, INodeProperties, INodeTypeDescription } from 'n8n-workflow';

/** MCP's behaviour hints of a tool (all optional: a client assumes the worst for what is absent). */
export interface McpToolAnnotations {
	readOnlyHint?: boolean;
	destructiveHint?: boolean;
	idempotentHint?: boolean;
	openWorldHint?: boolean;
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** What the first word of an operation says it does. */
const VERBS: Array<[RegExp, McpToolAnnotations]> = [
	[
		/^(get|getall|getmany|list|search|read|find|lookup|fetch|download|query|count|retrieve|check|view|head|options|info|status)$/,
		{ readOnlyHint: true, destructiveHint: false, idempotentHint: true },
	],
	[
		/^(delete|remove|clear|purge|destroy|drop|trash|revoke|kick|ban|empty)$/,
		{ readOnlyHint: false, destructiveHint: true, idempotentHint: true },
	],
	[
		/^(update|upsert|edit|patch|put|replace|set|rename|move|overwrite)$/,
		{ readOnlyHint: false, destructiveHint: true, idempotentHint: true },
	],
	[
		/^(create|add|insert|append|send|post|upload|publish|invite|reply|respond|execute|run|start|copy|share|write|import|submit|trigger|call|invoke|generate)$/,
		{ readOnlyHint: false, destructiveHint: false, idempotentHint: false },
	],
];

/**
 * n8n-nodes-base nodes that only compute on their input: no network, no side effects
 * (`openWorldHint: false`, read-only).
 */
const LOCAL_NODE_TYPES = new Set(
	[
		'crypto',
		'dateTime',
		'set',
		'markdown',
		'html',
		'xml',
		'compression',
		'convertToFile',
		'extractFromFile',
		'itemLists',
		'aggregate',
		'summarize',
		'sort',
		'limit',
		'removeDuplicates',
		'splitOut',
		'filter',
		'renameKeys',
		'jwt',
		'totp',
		'noOp',
		'editImage',
	].map((name) => `n8n-nodes-base.${name}`),
);

/**
 * The MCP annotations of a node's tool, from what the node's description says about the
 * operation the workflow chose: a read (get, getAll, search, list …) is read-only and
 * idempotent; delete, remove, clear … destroy (idempotent); update, upsert, set … overwrite
 * (destructive, idempotent); create, send, append, post, upload … add (not destructive, not
 * idempotent). The HTTP Request node's method counts as its operation (GET reads, DELETE
 * destroys, PUT/PATCH overwrite, POST adds). Nodes that only compute on their input (Crypto,
 * Date & Time, Edit Fields, HTML, XML …) are read-only and closed-world; every other node
 * reaches an outside service (`openWorldHint: true`). An operation the model chooses
 * (`$fromAI`) or that is unknown gives no read/destroy hints. The node's Notes override any
 * hint with a line `mcp: readOnlyHint=true destructiveHint=false` (see {@link annotationsFromNotes}).
 */
export function toolAnnotations(
	node: Pick<INode, 'type' | 'parameters' | 'notes'>,
	description: Pick<INodeTypeDescription, 'properties'> | undefined,
): McpToolAnnotations {
	const baseType = node.type.replace(/Tool$/, '');
	const derived: McpToolAnnotations = {};
	if (LOCAL_NODE_TYPES.has(baseType)) {
		Object.assign(derived, { readOnlyHint: true, destructiveHint: false, openWorldHint: false });
	} else {
		derived.openWorldHint = true;
		const verb = operationVerb(node, description);
		const hints = verb === undefined ? undefined : VERBS.find(([pattern]) => pattern.test(verb));
		if (hints) Object.assign(derived, hints[1]);
	}
	return { ...derived, ...annotationsFromNotes(node.notes) };
}

/**
 * Hints a user wrote in a node's Notes (node settings in n8n), one line starting `mcp:`
 * followed by `name=true|false` pairs of MCP's hint names, e.g.
 * `mcp: readOnlyHint=false destructiveHint=true`. Other lines and names are ignored.
 */
export function annotationsFromNotes(notes: string | undefined): McpToolAnnotations {
	const found: McpToolAnnotations = {};
	for (const line of (notes ?? '').split(/\r?\n/)) {
		const match = /^\s*mcp\s*:(.*)$/i.exec(line);
		if (!match) continue;
		for (const [, name, value] of match[1].matchAll(/([A-Za-z]+)\s*=\s*(true|false)\b/gi)) {
			const hint = HINTS.find((candidate) => candidate.toLowerCase() === name.toLowerCase());
			if (hint) found[hint] = value.toLowerCase() === 'true';
		}
	}
	return found;
}

/** The first word of the chosen operation (`getAll` → `getall`, `deleteMessage` → `delete`), lower case. */
function operationVerb(
	node: Pick<INode, 'type' | 'parameters'>,
	description: Pick<INodeTypeDescription, 'properties'> | undefined,
): string | undefined {
	const parameters = node.parameters ?? {};
	if (/\.httpRequest(Tool)?$/.test(node.type)) {
		const method = parameters.method ?? 'GET';
		return typeof method === 'string' && !method.startsWith('=') ? method.toLowerCase() : undefined;
	}
	const properties = description?.properties ?? [];
	const resource = parameters.resource ?? properties.find((p) => p.name === 'resource')?.default;
	const operationProperty = properties.find(
		(property) =>
			property.name === 'operation' &&
			(resource === undefined ||
				!property.displayOptions?.show?.resource ||
				(property.displayOptions.show.resource as unknown[]).includes(resource)),
	);
	const operation = parameters.operation ?? operationProperty?.default;
	if (typeof operation !== 'string' || operation === '' || operation.startsWith('='))
		return undefined;
	const word = firstWord(operation);
	if (VERBS.some(([pattern]) => pattern.test(word))) return word;
	// An operation named otherwise (`sendAndWait`, `mark`): its action text may say more.
	const option = (operationProperty?.options as INodeProperties['options'])?.find(
		(candidate) => 'value' in candidate && candidate.value === operation,
	) as { action?: string; name?: string } | undefined;
	return firstWord(option?.action ?? option?.name ?? operation);
}

function firstWord(text: string): string {
	const lower = text.trim().toLowerCase();
	if (/^get\s*(all|many)\b/.test(lower) || /^get(all|many)/.test(lower)) return 'getall';
	return (/^[a-z]+/.exec(
		text
			.trim()
			.replace(/([a-z])([A-Z])/g, '$1 $2')
			.toLowerCase(),
	) ?? [''])[0];
}
