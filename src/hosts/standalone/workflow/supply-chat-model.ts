import type { IDataObject, INode } from 'n8n-workflow';
import type { CallModel } from '../../../agent/call-model-step';
import { AgentConfigurationError } from '../../../errors/agent-configuration-error';
import { MissingCredentialError } from '../../../errors/missing-credential-error';
import {
	createLangChainModelCaller,
	isLangChainChatModel,
	langChainModelName,
} from '../../../langchain/langchain-model-caller';
import { findUnavailableNodes } from '../node-availability';
import { containedModelCall } from './contained-model-call';
import type { StandaloneHost } from '../standalone-host';
import { subNodeTree } from '../sub-nodes/sub-node-tree';
import { ToolSupply } from '../sub-nodes/tool-supply';
import type { WorkflowExport } from '../workflow-file';

/** A chat-model sub-node supplied by its own node code, as our loop's model call. */
export interface SuppliedChatModel {
	callModel: CallModel;
	/** The model id the LangChain model reports (e.g. `llama-3.3-70b-versatile`), else its type. */
	name: string;
	/** The model node. */
	node: INode;
}

/**
 * Supplies an agent's chat-model sub-nodes (any node on its `ai_languageModel` input: n8n's
 * Groq, Mistral, Ollama, Anthropic, Gemini … Chat Models) through their own `supplyData`, in
 * the agent's execution (`ToolSupply`: n8n-core's SupplyDataContext, the agent as parent node,
 * the credential through the host's credentials helper), so the node's own options
 * (temperature, max tokens, base URL …) apply as in n8n.
 */
export interface ChatModelSupplier {
	/**
	 * The model `node` supplies, as a model call (the LangChain model caller).
	 * @throws {AgentConfigurationError} `model` when its package is not installed, its credential
	 *   was not supplied (naming node and credential type), it cannot supply, or what it supplies
	 *   is not a chat model.
	 */
	supply(node: INode): Promise<SuppliedChatModel>;
	/** Closes what the supplied models opened. */
	close(): Promise<void>;
}

/** Where the supplied models run: the agent's execution. */
export interface ChatModelSupplyScope {
	host: StandaloneHost;
	workflow: WorkflowExport;
	/** The agent node the model is connected to (n8n's parent node). */
	agentNode: INode;
	/** The agent's input item json (`$json` in the model node's expressions). */
	input?: IDataObject;
	/** Added to the model node's expression variables (`$` over pinned output). */
	expressionKeys?: IDataObject;
}

/**
 * A {@link ChatModelSupplier} for one agent run. Each node is supplied once per supplier.
 */
export function createChatModelSupplier(scope: ChatModelSupplyScope): ChatModelSupplier {
	const supplies: ToolSupply[] = [];
	const supplied = new Map<string, Promise<SuppliedChatModel>>();
	const supplyNode = async (node: INode): Promise<SuppliedChatModel> => {
		const tree = subNodeTree(scope.workflow, node.name);
		const missing = findUnavailableNodes(node, tree, scope.host.nodeTypes);
		if (missing)
			throw new AgentConfigurationError(
				'model',
				`Cannot run chat model ${missing.message} Install it (${missing.packageName ? `npm install ${missing.packageName}` : 'the package that has it'}) beside toolbridge, or give a model with --model on an OpenAI-compatible endpoint.`,
			);
		const nodeType = scope.host.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		if (!nodeType.supplyData)
			throw new AgentConfigurationError(
				'model',
				`Node "${node.name}" (${node.type}) on the Chat Model input of agent "${scope.agentNode.name}" does not supply a chat model.`,
			);
		const supply = new ToolSupply(
			scope.host,
			scope.workflow,
			scope.agentNode,
			tree,
			scope.input,
			undefined,
			scope.expressionKeys,
		);
		supplies.push(supply);
		let model: unknown;
		try {
			model = await supply.supplyAs(node, nodeType, 'ai_languageModel');
		} catch (error) {
			throw modelSupplyError(error, node, scope.agentNode);
		}
		if (Array.isArray(model)) model = model[0];
		if (!isLangChainChatModel(model))
			throw new AgentConfigurationError(
				'model',
				`Node "${node.name}" (${node.type}) on the Chat Model input of agent "${scope.agentNode.name}" supplied something that is not a chat model.`,
			);
		return {
			callModel: containedModelCall(node, createLangChainModelCaller(model)),
			name: langChainModelName(model),
			node,
		};
	};
	return {
		supply(node) {
			let promise = supplied.get(node.name);
			if (!promise) {
				promise = supplyNode(node);
				supplied.set(node.name, promise);
			}
			return promise;
		},
		async close() {
			await Promise.allSettled(supplies.splice(0).map(async (supply) => await supply.close()));
		},
	};
}

/** A failed supply as an AgentConfigurationError naming the model node (and its credential type when that is missing). */
function modelSupplyError(error: unknown, node: INode, agentNode: INode): AgentConfigurationError {
	const where = `chat model "${node.name}" (${node.type}) of agent "${agentNode.name}"`;
	if (error instanceof MissingCredentialError) {
		const named = error.credentialName
			? `credential "${error.credentialName}" (type ${error.credentialType})`
			: `a credential of type ${error.credentialType}`;
		const keys = error.credentialName
			? `"${error.credentialName}" or "${error.credentialType}"`
			: `"${error.credentialType}"`;
		return new AgentConfigurationError(
			'credential',
			`The ${where} needs ${named}, which was not supplied. Add it to the credentials JSON file (--credentials) or the TOOLBRIDGE_CREDENTIALS environment variable under the key ${keys}; or give a model with --model on an OpenAI-compatible endpoint.`,
			{ cause: error },
		);
	}
	const message = error instanceof Error ? error.message : String(error);
	return new AgentConfigurationError(
		'model',
		`The ${where} could not supply its model: ${message}`,
		{ cause: error },
	);
}
