import type { EngineRequest, IDataObject } from 'n8n-workflow';
import type { AgentState } from '../../../agent/agent-state';
import type { ToolCallResult } from '../../../agent/apply-tool-results';
import type { ToolRoute } from './tool-route';

/**
 * One input item's run between engine re-entries. Plain JSON: n8n keeps it in the
 * EngineRequest's metadata (persisted with the execution, also while a person reviews a
 * tool call) and hands it back in the EngineResponse.
 */
export interface EngineItem {
	itemIndex: number;
	/**
	 * When the item's run started (epoch ms): the whole-run time limit counts from here, so
	 * it spans re-entries and the time n8n spends running the tool nodes. Absent in states
	 * written before it existed; the limit then counts from the current entry.
	 */
	startedAt?: number;
	/** The agent loop's state. */
	state: AgentState;
	/** Per tool name: which node the engine runs. */
	routes: Record<string, ToolRoute>;
	/** Results of the pending turn's calls that are already in (a turn may take several re-entries). */
	results: ToolCallResult[];
	/** Per pending tool call id: the id of the engine action sent for it. */
	actionIds: Record<string, string>;
	/** Gated calls a person approved: their tool runs next. */
	approved: string[];
	/** The redacted `[DEBUG]` lines so far (only when the debug log is on). */
	debugLog: string[];
	/** Memory warnings so far ("On Memory Error: Continue"); absent in states written before they existed. */
	warnings?: string[];
	/** The item's output once finished (an answer, or an error item with continue-on-fail). */
	output?: IDataObject;
}

/** The metadata of every EngineRequest this package returns. */
export interface EngineRunMetadata {
	toolbridge: {
		version: 1;
		/** How many times the engine has resumed the node so far. */
		reEntries: number;
		items: EngineItem[];
	};
}

/** The EngineRequest this package returns: the actions of all items, and their state. */
export interface AgentEngineRequest {
	actions: EngineAction[];
	metadata: EngineRunMetadata;
}

/** One action of an EngineRequest (n8n-workflow does not export the type by name). */
export type EngineAction = EngineRequest<EngineActionMetadata>['actions'][number];

/** What each action carries back to us in the EngineResponse. */
export interface EngineActionMetadata {
	/** n8n-core merges this input item's json into the tool node's input, as for n8n's agent. */
	itemIndex: number;
	toolCallId: string;
	toolName: string;
	/** For a review gate's action: what n8n's agent puts there (its UI and logs read it). */
	hitl?: { gatedToolNodeName: string; toolName: string; originalInput: unknown };
	/** For an approved gated tool: the review node, so n8n logs the run under it. */
	parentNodeName?: string;
}
