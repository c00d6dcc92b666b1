import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError } from '../../../errors/invalid-argument-error';
import { WorkflowFileError } from '../../../errors/workflow-file-error';
import { parseWorkflow, readWorkflowFile, type WorkflowExport } from '../workflow-file';

/** Where sub-workflows come from: a folder or file of exports (`--workflows DIR`), or exports in hand. */
export type WorkflowsSource = string | readonly WorkflowExport[];

/**
 * The workflow exports a session's sub-workflow references resolve against — n8n's
 * "Database" source without a database: matched by `id`, then by name. Resolutions it had to
 * guess are told to `onNotice` once each (the CLI writes them to stderr).
 */
export class WorkflowLibrary {
	private readonly noticed = new Set<string>();

	private constructor(
		readonly workflows: readonly WorkflowExport[],
		/** Where they came from, for messages: the folder, or "the workflows option". */
		readonly origin: string | undefined,
		private readonly onNotice?: (message: string) => void,
	) {}

	/** A library with no workflows. */
	static empty(onNotice?: (message: string) => void): WorkflowLibrary {
		return new WorkflowLibrary([], undefined, onNotice);
	}

	/**
	 * Reads a library: every `*.json` file directly in a folder that is an n8n workflow export
	 * (other JSON files, e.g. a credentials file beside them, are skipped), one file, or the
	 * exports given.
	 * @throws InvalidArgumentError (INVALID_ARGUMENT) when `source` is neither a path nor an array.
	 * @throws WorkflowFileError when the path cannot be read, a file is not valid JSON, or a given export is not a workflow.
	 */
	static from(
		source: WorkflowsSource | undefined,
		onNotice?: (message: string) => void,
	): WorkflowLibrary {
		if (source === undefined) return WorkflowLibrary.empty(onNotice);
		if (typeof source !== 'string') {
			if (!Array.isArray(source)) {
				throw new InvalidArgumentError(
					'StandaloneHost.create',
					'options.workflows',
					'a folder or file path (string) or an array of workflow exports',
					source,
				);
			}
			return new WorkflowLibrary(
				source.map((workflow, index) => parseWorkflow(workflow, `workflows[${index}]`)),
				'the workflows option',
				onNotice,
			);
		}
		let files: string[];
		try {
			files = statSync(source).isDirectory()
				? readdirSync(source)
						.filter((name) => name.endsWith('.json'))
						.sort()
						.map((name) => join(source, name))
				: [source];
		} catch (error) {
			throw new WorkflowFileError(
				`Cannot read the workflows folder ${source}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`,
				{ cause: error },
			);
		}
		const workflows = files.flatMap((file) => {
			try {
				return [readWorkflowFile(file)];
			} catch (error) {
				// Not a workflow export (credentials, notes): skipped. Broken JSON is reported.
				if (files.length > 1 && /is not an n8n workflow/.test((error as Error).message)) return [];
				throw error;
			}
		});
		return new WorkflowLibrary(workflows, source, onNotice);
	}

	/** Tells the user once (per message) about a resolution the host had to guess. */
	notice(message: string): void {
		if (this.noticed.has(message)) return;
		this.noticed.add(message);
		this.onNotice?.(message);
	}

	/** The export whose `id` is `id`. */
	byId(id: string): WorkflowExport | undefined {
		return this.workflows.find(
			(workflow) => workflow.id !== undefined && String(workflow.id) === id,
		);
	}

	/**
	 * Every workflow a run of `workflow` may call that can be known before it runs: the
	 * library's, and those written as JSON in its nodes (n8n's "Parameter" source,
	 * `workflowJson`) — e.g. to know the secrets their nodes will be handed.
	 */
	reachableFrom(workflow: WorkflowExport): WorkflowExport[] {
		const inline = workflow.nodes.flatMap((node) => {
			const json = node.parameters.workflowJson;
			if (typeof json !== 'string' || json.startsWith('=')) return [];
			try {
				return [parseWorkflow(JSON.parse(json), `Node "${node.name}" workflow JSON`)];
			} catch {
				return []; // n8n reports it when the node runs
			}
		});
		return [...this.workflows, ...inline];
	}

	/** The export named `name` (n8n's "From list" locator keeps the name it showed). */
	byName(name: string): WorkflowExport | undefined {
		return this.workflows.find((workflow) => workflow.name === name);
	}
}
