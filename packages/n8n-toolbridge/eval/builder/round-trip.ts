/**
 * Round trip over real workflow exports: JSON → SDK code (`generateWorkflowCode`) → JSON, read
 * back the way the builder reads a model's code (our pre-pass, then the SDK's interpreter), and
 * compared node by node and edge by edge.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { generateWorkflowCode, type WorkflowJSON } from '@n8n/workflow-sdk';
import { parseWorkflowCode } from '../../src/builder/code/parse-workflow-code';

/** Node fields compared besides type, version, parameters and credentials. */
const FLAGS = [
	'disabled',
	'onError',
	'retryOnFail',
	'maxTries',
	'waitBetweenTries',
	'executeOnce',
	'alwaysOutputData',
	'notes',
	'notesInFlow',
	'webhookId',
] as const;
/** What the SDK drops by design: webhook ids other than three trigger types', credentials without an id, a sticky note's `disabled`. */
const KNOWN_DROPS = new Set(['webhookId', 'credentialWithoutId', 'stickyDisabled']);

/** The fidelity of a round trip over a set of workflows. */
export interface RoundTripReport {
	files: number;
	workflows: number;
	generateFailures: number;
	/** Generated code our pre-pass or the SDK refused. */
	readFailures: string[];
	nodes: number;
	sameType: number;
	sameVersion: number;
	sameParameters: number;
	sameCredentials: number;
	sameFlags: number;
	edges: number;
	sameEdges: number;
	/** Workflows with no difference at all. */
	exact: number;
	/** Workflows whose only differences are the SDK's known drops. */
	exactButKnownDrops: number;
	/** Other differences, by workflow. */
	otherDifferences: Array<{ file: string; differences: string[] }>;
}

/** Every `.json` file under the folders (recursively), skipping `node_modules` and `packages`. */
export function workflowFiles(dirs: string[]): string[] {
	const found: string[] = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir)) {
			if (entry === 'node_modules' || entry === 'packages') continue;
			const path = join(dir, entry);
			if (statSync(path).isDirectory()) walk(path);
			else if (entry.endsWith('.json')) found.push(path);
		}
	};
	for (const dir of dirs) walk(dir);
	return found.sort();
}

/** Runs the round trip over the files that hold a workflow export (`nodes` and `connections`). */
export function roundTrip(files: string[]): RoundTripReport {
	const report: RoundTripReport = {
		files: files.length,
		workflows: 0,
		generateFailures: 0,
		readFailures: [],
		nodes: 0,
		sameType: 0,
		sameVersion: 0,
		sameParameters: 0,
		sameCredentials: 0,
		sameFlags: 0,
		edges: 0,
		sameEdges: 0,
		exact: 0,
		exactButKnownDrops: 0,
		otherDifferences: [],
	};
	for (const file of files) {
		let original: WorkflowJSON;
		try {
			original = JSON.parse(readFileSync(file, 'utf8')) as WorkflowJSON;
		} catch {
			continue;
		}
		if (!Array.isArray(original?.nodes) || typeof original.connections !== 'object') continue;
		report.workflows += 1;
		let code: string;
		try {
			code = generateWorkflowCode(original);
		} catch {
			report.generateFailures += 1;
			continue;
		}
		let back: WorkflowJSON;
		try {
			back = parseWorkflowCode(code).builder.toJSON();
		} catch (error) {
			report.readFailures.push(`${file}: ${(error as Error).message.slice(0, 160)}`);
			continue;
		}
		const differences = compare(original, back, report);
		if (differences.length === 0) report.exact += 1;
		const other = differences.filter((difference) => !KNOWN_DROPS.has(difference.split(':')[0]));
		if (other.length === 0) report.exactButKnownDrops += 1;
		else report.otherDifferences.push({ file, differences: other });
	}
	return report;
}

type NodeLike = WorkflowJSON['nodes'][number] & Record<string, unknown>;

function compare(a: WorkflowJSON, b: WorkflowJSON, report: RoundTripReport): string[] {
	const differences: string[] = [];
	const after = new Map(b.nodes.map((node) => [node.name, node as NodeLike]));
	for (const nodeA of a.nodes as NodeLike[]) {
		report.nodes += 1;
		const nodeB = after.get(nodeA.name);
		if (!nodeB) {
			differences.push(`missingNode: ${nodeA.name}`);
			continue;
		}
		const sticky = nodeA.type === 'n8n-nodes-base.stickyNote';
		if (nodeA.type === nodeB.type) report.sameType += 1;
		else differences.push(`type: ${nodeA.name}`);
		if (Number(nodeA.typeVersion ?? 1) === Number(nodeB.typeVersion)) report.sameVersion += 1;
		else differences.push(`typeVersion: ${nodeA.name}`);
		const parameters = (node: NodeLike) => {
			const copy = { ...(node.parameters ?? {}) } as Record<string, unknown>;
			if (sticky) {
				delete copy.width;
				delete copy.height;
			}
			return copy;
		};
		if (isDeepStrictEqual(parameters(nodeA), parameters(nodeB))) report.sameParameters += 1;
		else differences.push(`parameters: ${nodeA.name}`);
		const credentials = (node: NodeLike) =>
			Object.fromEntries(
				Object.entries(node.credentials ?? {}).map(([key, value]) => [
					key,
					{ id: value?.id ?? null, name: value?.name ?? null },
				]),
			);
		if (isDeepStrictEqual(credentials(nodeA), credentials(nodeB))) report.sameCredentials += 1;
		else
			differences.push(
				Object.values(nodeA.credentials ?? {}).some((value) => !value?.id)
					? `credentialWithoutId: ${nodeA.name}`
					: `credentials: ${nodeA.name}`,
			);
		const flags = (node: NodeLike) =>
			Object.fromEntries(
				FLAGS.filter(
					(flag) => node[flag] !== undefined && node[flag] !== false && node[flag] !== '',
				).map((flag) => [flag, node[flag]]),
			);
		const flagsA = flags(nodeA);
		const flagsB = flags(nodeB);
		if (isDeepStrictEqual(flagsA, flagsB)) report.sameFlags += 1;
		else {
			const changed = FLAGS.filter((flag) => !isDeepStrictEqual(flagsA[flag], flagsB[flag]));
			for (const flag of changed)
				differences.push(
					flag === 'webhookId'
						? `webhookId: ${nodeA.name}`
						: sticky && flag === 'disabled'
							? `stickyDisabled: ${nodeA.name}`
							: `${flag}: ${nodeA.name}`,
				);
		}
	}
	for (const nodeB of b.nodes)
		if (!a.nodes.some((node) => node.name === nodeB.name))
			differences.push(`extraNode: ${nodeB.name}`);
	const names = new Set(a.nodes.map((node) => node.name));
	const edgesA = [...edges(a)].filter((edge) =>
		edge.split('->').every((end) => names.has(end.split('|')[0])),
	);
	const edgesB = edges(b);
	report.edges += edgesA.length;
	for (const edge of edgesA) {
		if (edgesB.has(edge)) report.sameEdges += 1;
		else differences.push(`missingEdge: ${edge}`);
	}
	return differences;
}

function edges(workflow: WorkflowJSON): Set<string> {
	const found = new Set<string>();
	for (const [source, byType] of Object.entries(workflow.connections ?? {}))
		for (const [type, outputs] of Object.entries(byType ?? {}))
			(outputs ?? []).forEach((targets, output) => {
				for (const target of targets ?? [])
					if (target?.node)
						found.add(
							`${source}|${type}|${output}->${target.node}|${target.type}|${target.index ?? 0}`,
						);
			});
	return found;
}
