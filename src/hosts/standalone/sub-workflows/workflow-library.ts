import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WorkflowFileError } from '../../../errors/workflow-file-error';
import { parseWorkflow, readWorkflowFile, type WorkflowExport } from '../workflow-file';

/** Where sub-workflows come from: a folder or file of exports (`--workflows DIR`), or exports in hand. */
export type WorkflowsSource = string | readonly WorkflowExport[];

/**
 * The workflow exports a session's sub-workflow references resolve against — n8n's
 * "Database" source without a database: matched by `id`, then by name.
 */
export class WorkflowLibrary {
	private constructor(
		readonly workflows: readonly WorkflowExport[],
		/** Where they came from, for messages: the folder, or "the workflows option". */
		readonly origin: string | undefined,
	) {}

	/** A library with no workflows. */
	static empty(): WorkflowLibrary {
		return new WorkflowLibrary([], undefined);
	}

	/**
	 * Reads a library: every `*.json` file directly in a folder that is an n8n workflow export
	 * (other JSON files, e.g. a credentials file beside them, are skipped), one file, or the
	 * exports given.
	 * @throws WorkflowFileError when the path cannot be read, a file is not valid JSON, or a given export is not a workflow.
	 */
	static from(source: WorkflowsSource | undefined): WorkflowLibrary {
		if (source === undefined) return WorkflowLibrary.empty();
		if (typeof source !== 'string') {
			return new WorkflowLibrary(
				source.map((workflow, index) => parseWorkflow(workflow, `workflows[${index}]`)),
				'the workflows option',
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
		return new WorkflowLibrary(workflows, source);
	}

	/** The export whose `id` is `id`. */
	byId(id: string): WorkflowExport | undefined {
		return this.workflows.find(
			(workflow) => workflow.id !== undefined && String(workflow.id) === id,
		);
	}

	/** The export named `name` (n8n's "From list" locator keeps the name it showed). */
	byName(name: string): WorkflowExport | undefined {
		return this.workflows.find((workflow) => workflow.name === name);
	}
}
