import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';

/**
 * Builds the `…Tool` variant of a node type that has `usableAsTool`, the way the n8n CLI does
 * when it loads nodes (its `convertNodeToAiTool`, which n8n-core does not ship): the name
 * gets `Tool`, inputs become none, the output becomes `ai_tool`, and `toolDescription`
 * (plus `descriptionType` when the node has a resource or operation) is added after any
 * callout. `usableAsTool.replacements` are applied first. The node's methods (`execute`, …)
 * are inherited unchanged; the original type object is not modified.
 */
export function deriveToolNodeType(nodeType: INodeType): INodeType {
	return Object.create(nodeType, {
		description: { value: toolVariantDescription(nodeType.description), enumerable: true },
	}) as INodeType;
}

/**
 * The description of a node's `…Tool` variant (see {@link deriveToolNodeType}); also what the
 * workflow builder's catalog lists for every `usableAsTool` node. The original is not changed.
 */
export function toolVariantDescription(original: INodeTypeDescription): INodeTypeDescription {
	const replacements =
		typeof original.usableAsTool === 'object' ? original.usableAsTool.replacements : undefined;
	const description: INodeTypeDescription = {
		...original,
		...(replacements as Partial<INodeTypeDescription> | undefined),
		properties: [...original.properties],
	};
	description.name = `${description.name}Tool`;
	description.displayName = `${description.displayName} Tool`;
	description.inputs = [];
	description.outputs = ['ai_tool'];
	delete description.usableAsTool;

	const names = description.properties.map((property) => property.name);
	if (!names.includes('toolDescription')) {
		const hasResourceOrOperation = names.includes('resource') || names.includes('operation');
		const toolDescription: INodeProperties = {
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: original.description,
			required: true,
			typeOptions: { rows: 2 },
			description:
				'Explain to the LLM what this tool does, a good, specific description would allow LLMs to produce expected results much more often',
		};
		let lastCallout = -1;
		description.properties.forEach((property, index) => {
			if (property.type === 'callout') lastCallout = index;
		});
		description.properties.splice(lastCallout + 1, 0, toolDescription);
		if (hasResourceOrOperation) {
			description.properties.splice(lastCallout + 1, 0, {
				displayName: 'Tool Description',
				name: 'descriptionType',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Set Automatically',
						value: 'auto',
						description: 'Automatically set based on resource and operation',
					},
					{ name: 'Set Manually', value: 'manual', description: 'Manually set the description' },
				],
				default: 'auto',
			});
			toolDescription.displayOptions = { show: { descriptionType: ['manual'] } };
		}
	}
	return description;
}
