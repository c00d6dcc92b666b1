import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

/**
 * The description of a node's `…Tool` variant, as n8n derives it for every `usableAsTool` node
 * when it loads nodes (and the standalone host does at run time): `Tool` appended to name and
 * display name, no inputs, one `ai_tool` output, and a `toolDescription` field (with a
 * `descriptionType` auto/manual switch when the node has a resource or operation). The
 * original is not changed.
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
	if (names.includes('toolDescription')) return description;
	const toolDescription: INodeProperties = {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: original.description,
		required: true,
		typeOptions: { rows: 2 },
		description: 'Explain to the LLM what this tool does',
	};
	let afterCallouts = 0;
	description.properties.forEach((property, index) => {
		if (property.type === 'callout') afterCallouts = index + 1;
	});
	description.properties.splice(afterCallouts, 0, toolDescription);
	if (names.includes('resource') || names.includes('operation')) {
		description.properties.splice(afterCallouts, 0, {
			displayName: 'Tool Description',
			name: 'descriptionType',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Set Automatically', value: 'auto' },
				{ name: 'Set Manually', value: 'manual' },
			],
			default: 'auto',
		});
		toolDescription.displayOptions = { show: { descriptionType: ['manual'] } };
	}
	return description;
}
