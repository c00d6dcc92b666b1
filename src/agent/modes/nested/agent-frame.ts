import { AsyncLocalStorage } from 'node:async_hooks';
import type { Usage } from '../../../chat/types';
import { AgentNestingError } from '../../../errors/agent-nesting-error';
import { addUsage, emptyUsage } from '../../add-usage';

/** The default limit on agents calling agents (the outermost agent counts as 1). */
export const defaultMaxAgentDepth = 5;

/** The separator of agent paths in messages and debug lines. */
export const agentPathSeparator = ' › ';

/** What a running agent offers the agents it calls as tools. Lives in an AsyncLocalStorage. */
interface AgentFrameRecord {
	path: string[];
	/** Identity per level (workflow id + node name), for cycle detection. */
	keys: string[];
	maxDepth: number;
	signal?: AbortSignal;
	/** Takes a debug line of a nested agent (already prefixed with its path). */
	debug(line: string): void;
	/** Takes the whole usage of a nested agent's run (its own nested agents included). */
	addUsage(usage: Usage): void;
}

/** What a frame's record does once its run is over: nothing, holding nothing. */
const ignore = (): void => {};

/** Options of {@link enterAgentFrame}. */
export interface EnterAgentFrameOptions {
	/** The agent's display name (the n8n node name). */
	name: string;
	/** Identity for cycle detection, e.g. `workflowId/nodeName`; default `name`. */
	key?: string;
	/** This agent's depth limit; the smallest limit along the chain applies. */
	maxDepth?: number;
	/** This agent's own cancel signal; the parent's signal is combined with it. */
	signal?: AbortSignal;
	/** Where debug lines of nested agents go (this agent's own debug log). */
	sink: (line: string) => void;
}

/** One agent run's place in the chain of nested agents. */
export interface AgentFrame {
	/** Agent names from the outermost one down to this one. */
	path: string[];
	/** `Parent › Researcher`. */
	label: string;
	/** Aborts when this agent's own signal or any ancestor's aborts. */
	signal?: AbortSignal;
	/** Runs `work` so that agents it calls as tools (in-process) see this frame as their parent. */
	run<T>(work: () => Promise<T>): Promise<T>;
	/** Wraps an event listener: this agent's debug lines also go to its ancestors, prefixed with its path. */
	forwardDebug<E extends { type: string; line?: string }>(
		listener: (event: E) => void,
	): (event: E) => void;
	/** Records the run's usage so far; pass it as the driver's `onState`. */
	track(state: { usage: Usage }): void;
	/**
	 * This run's total usage (own + nested agents'); also reported to the parent agent. Call
	 * once: with the run's usage, or without it for a run that failed (the usage last
	 * tracked: a failed run still spent tokens).
	 */
	finish(ownUsage?: Usage): Usage;
}

const storage = new AsyncLocalStorage<AgentFrameRecord>();

/**
 * Enters an agent run into the chain of nested agents: the agent that called it as a tool
 * in-process (if any) is found through AsyncLocalStorage, so no tool interface has to
 * carry the chain.
 *
 * @throws {AgentNestingError} when the chain would exceed the depth limit, or the agent
 * is already running further up the chain (a cycle).
 */
export function enterAgentFrame(options: EnterAgentFrameOptions): AgentFrame {
	const parent = storage.getStore();
	const key = options.key ?? options.name;
	const path = [...(parent?.path ?? []), options.name];
	const label = path.join(agentPathSeparator);
	if (parent?.keys.includes(key)) {
		throw new AgentNestingError(
			'cycle',
			`Agent cycle: ${label}. "${options.name}" is already running further up this chain, so calling it again would never end. Remove the loop between the agents' tool connections.`,
			path,
		);
	}
	const maxDepth = Math.min(
		parent?.maxDepth ?? Number.POSITIVE_INFINITY,
		options.maxDepth ?? defaultMaxAgentDepth,
	);
	if (path.length > maxDepth) {
		throw new AgentNestingError(
			'depth',
			`Agent nesting too deep: ${label} is ${path.length} agents deep and the limit is ${maxDepth} (the "Max Depth" of a nested agent). Flatten the hierarchy or raise the limit.`,
			path,
		);
	}
	const signals = [options.signal, parent?.signal].filter(
		(signal): signal is AbortSignal => signal !== undefined,
	);
	const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
	let childUsage: Usage | undefined;
	let trackedUsage: Usage = emptyUsage();
	const prefix = (line: string): string => {
		if (path.length < 2) return line;
		return line.startsWith('[DEBUG] ')
			? `[DEBUG] [${label}] ${line.slice(8)}`
			: `[${label}] ${line}`;
	};
	const record: AgentFrameRecord = {
		path,
		keys: [...(parent?.keys ?? []), key],
		maxDepth,
		signal,
		debug: (line) => {
			options.sink(line);
			parent?.debug(line);
		},
		addUsage: (usage) => {
			childUsage = addUsage(childUsage ?? emptyUsage(), usage);
		},
	};
	return {
		path,
		label,
		signal,
		run: async (work) => {
			try {
				return await storage.run(record, work);
			} finally {
				// Node keeps the store of every async resource made inside `run` (a pooled
				// keep-alive socket, a timer) for that resource's whole life. Once the run is
				// over the record lets go of its sink and its parent, so such a resource keeps a
				// few strings alive instead of the caller's session, tools and host. Lines and
				// usage of work that outlives the run have nowhere to go anyway.
				record.debug = ignore;
				record.addUsage = ignore;
			}
		},
		forwardDebug: (listener) => (event) => {
			listener(event);
			if (event.type === 'debug' && typeof event.line === 'string')
				parent?.debug(prefix(event.line));
		},
		track: (state) => {
			trackedUsage = state.usage;
		},
		finish: (ownUsage = trackedUsage) => {
			const total = childUsage ? addUsage(ownUsage, childUsage) : ownUsage;
			parent?.addUsage(total);
			return total;
		},
	};
}
