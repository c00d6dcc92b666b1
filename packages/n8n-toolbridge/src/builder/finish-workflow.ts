import { randomBytes, randomUUID } from 'node:crypto';
import type { WorkflowBuilder, WorkflowJSON } from '@n8n/workflow-sdk';
import type { IConnections, INode, IWorkflowSettings } from 'n8n-workflow';
import type { NodeCatalog } from './catalog/node-catalog';

/** A workflow as `n8n import:workflow` takes it: one object with its own id, nodes and connections. */
export interface BuiltWorkflow {
	id: string;
	name: string;
	nodes: INode[];
	connections: IConnections;
	settings: IWorkflowSettings;
	active: false;
	/** n8n 2.x sets its own on import; older n8n requires one. */
	versionId: string;
}

/** A credential the workflow needs, to be created or chosen in n8n after the import. */
export interface CredentialNeeded {
	node: string;
	/** The credential type, e.g. `openRouterApi`. */
	type: string;
	/** The name the code gave it with `newCredential('Name')`. */
	name: string;
}

/** Options of {@link finishWorkflow}. */
export interface FinishWorkflowOptions {
	/** The workflow being edited: its id, and the ids and webhook ids of nodes that keep their names. */
	existing?: { id?: string; nodes: Array<{ name: string; id?: string; webhookId?: string }> };
	/** Makes ids (workflow id, webhook ids, versionId); default random. Injected for repeatable output. */
	randomId?: (kind: 'workflow' | 'uuid') => string;
}

const WORKFLOW_ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A fresh n8n-style workflow id: 16 letters and digits. */
export function newWorkflowId(): string {
	return [...randomBytes(16)]
		.map((byte) => WORKFLOW_ID_CHARS[byte % WORKFLOW_ID_CHARS.length])
		.join('');
}

/**
 * Turns a checked builder into the workflow n8n imports. Positions come from the SDK's dagre
 * layout (`toJSON({ tidyUp: true })`), never from the code: any `position` the model wrote is
 * removed first (the SDK would keep it). Node ids come from the SDK's deterministic ids (or the
 * edited workflow's, by node name), never from the code. The workflow gets a fresh id unless it
 * is being edited (n8n's import overwrites the workflow with the same id), a webhook id on every
 * node whose type serves webhooks (the SDK adds them to three types only), execution order v1,
 * `active: false` and a `versionId`. Credentials written as `newCredential('Name')` have no id
 * and are left out of the JSON; they are listed in `credentialsNeeded`.
 */
export function finishWorkflow(
	builder: WorkflowBuilder,
	catalog: NodeCatalog,
	options: FinishWorkflowOptions = {},
): { workflow: BuiltWorkflow; credentialsNeeded: CredentialNeeded[] } {
	const randomId =
		options.randomId ??
		((kind: 'workflow' | 'uuid') => (kind === 'workflow' ? newWorkflowId() : randomUUID()));
	const names = builder.toJSON().nodes.map((node) => node.name ?? '');
	const credentialsNeeded: CredentialNeeded[] = [];
	for (const name of names) {
		const config = builder.getNode(name)?.config as
			{ position?: unknown; id?: unknown; credentials?: Record<string, unknown> } | undefined;
		if (!config) continue;
		delete config.position;
		delete config.id;
		for (const [type, value] of Object.entries(config.credentials ?? {})) {
			const credential = value as { id?: unknown; name?: unknown } | undefined;
			if (credential && credential.id === undefined && typeof credential.name === 'string')
				credentialsNeeded.push({ node: name, type, name: credential.name });
		}
	}
	const existingIds = new Map(
		(options.existing?.nodes ?? [])
			.filter((node) => typeof node.id === 'string' && node.id !== '')
			.map((node) => [node.name, node.id as string]),
	);
	builder.regenerateNodeIds(existingIds);
	const json: WorkflowJSON = builder.toJSON({ tidyUp: true });
	// An edited trigger keeps its webhook id, so its URL does not change.
	const webhookIds = new Map(
		(options.existing?.nodes ?? [])
			.filter((node) => typeof node.webhookId === 'string')
			.map((node) => [node.name, node.webhookId as string]),
	);
	const nodes = json.nodes.map((node) =>
		finishNode(
			node as unknown as INode,
			catalog,
			() => webhookIds.get(node.name ?? '') ?? randomId('uuid'),
		),
	);
	return {
		workflow: {
			id: options.existing?.id || randomId('workflow'),
			name: (json.name || 'Built workflow').slice(0, 128),
			nodes,
			connections: json.connections as IConnections,
			settings: { ...(json.settings as IWorkflowSettings | undefined), executionOrder: 'v1' },
			active: false,
			versionId: randomId('uuid'),
		},
		credentialsNeeded,
	};
}

function finishNode(node: INode, catalog: NodeCatalog, webhookId: () => string): INode {
	const finished: INode = { ...node };
	const credentials = Object.fromEntries(
		Object.entries(node.credentials ?? {}).filter(
			([, value]) => value && typeof value === 'object' && (value as { id?: unknown }).id,
		),
	);
	if (Object.keys(credentials).length > 0) finished.credentials = credentials;
	else delete finished.credentials;
	if (!finished.webhookId && servesWebhooks(node, catalog)) finished.webhookId = webhookId();
	return finished;
}

function servesWebhooks(node: INode, catalog: NodeCatalog): boolean {
	try {
		return (catalog.describe(node.type, Number(node.typeVersion))?.webhooks?.length ?? 0) > 0;
	} catch {
		return false;
	}
}
