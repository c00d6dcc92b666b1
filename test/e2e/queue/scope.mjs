// @ts-check
/**
 * The scope a queue-mode scenario gets (see ../lib/context.mjs ScenarioScope for the cleanups,
 * fakes and notes it inherits).
 */
import { ScenarioScope } from '../lib/context.mjs';

/**
 * A scenario's scope in this suite: the shared topology, the server programs, and figures
 * printed at the end of the run.
 */
export class QueueScope extends ScenarioScope {
	/**
	 * @param {import('../lib/context.mjs').RunContext} run
	 * @param {string} id
	 * @param {import('../lib/queue-topology.mjs').QueueTopology | undefined} topology
	 * @param {import('../lib/system-packages.mjs').ServerPrograms} programs
	 */
	constructor(run, id, topology, programs) {
		super(run, id);
		this.topologyOrNone = topology;
		this.programs = programs;
		/** @type {string[]} */
		this.figures = [];
	}

	/** The shared queue topology. */
	get topology() {
		if (!this.topologyOrNone)
			throw new Error('this scenario needs the queue topology (set needsTopology)');
		return this.topologyOrNone;
	}

	/**
	 * A figure for the end of the run (e.g. state sizes).
	 * @param {string} figure
	 */
	figure(figure) {
		this.figures.push(figure);
	}
}
