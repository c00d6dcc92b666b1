import type { INodeTypeDescription } from 'n8n-workflow';
import {
	buildDiscriminatorTree,
	extractDiscriminatorCombinations,
	filterPropertiesForVersion,
	hasDiscriminatorPattern,
	isCustomApiCall,
	type DiscriminatorCombination,
	type NodeTypeDescription,
	// The generator's own module (listed in the SDK's exports map): the index leaves some of it out.
} from '@n8n/workflow-sdk/dist/generate-types/generate-types';

/** A description as the SDK's type generator reads it (the same object, typed its way). */
export function asSdkDescription(description: INodeTypeDescription): NodeTypeDescription {
	return description as unknown as NodeTypeDescription;
}

/**
 * The discriminator combinations of a node at a version (resource/operation, or mode): the
 * SDK's split of its parameters, custom API calls left out. Empty when the node has none.
 */
export function discriminatorCombinations(
	description: INodeTypeDescription,
	version: number,
): DiscriminatorCombination[] {
	const node = versionedDescription(description, version);
	if (!hasDiscriminatorPattern(node)) return [];
	return extractDiscriminatorCombinations(node).filter(
		(combination) => combination.operation === undefined || !isCustomApiCall(combination.operation),
	);
}

/** The description with only the properties that apply to `version`. */
export function versionedDescription(
	description: INodeTypeDescription,
	version: number,
): NodeTypeDescription {
	const node = asSdkDescription(description);
	return { ...node, properties: filterPropertiesForVersion(node.properties, version) };
}

/** One line listing a node's discriminators, e.g. `resource/operation: message (post, update); channel (create)`. */
export function discriminatorSummary(combinations: DiscriminatorCombination[]): string | undefined {
	if (combinations.length === 0) return undefined;
	const tree = buildDiscriminatorTree(combinations);
	if (tree.type === 'resource_operation' && tree.resources)
		return `resource/operation: ${[...tree.resources]
			.map(([resource, operations]) => `${resource} (${operations.join(', ')})`)
			.join('; ')}`;
	if (tree.type === 'single' && tree.discriminatorName)
		return `${tree.discriminatorName}: ${(tree.discriminatorValues ?? []).join(', ')}`;
	return undefined;
}
