import type { IDataObject } from 'n8n-workflow';
import type { AgentState } from '../agent-state';
import type { ToolCallResult } from '../apply-tool-results';
import type { EngineAction } from './plan-engine-actions';
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
