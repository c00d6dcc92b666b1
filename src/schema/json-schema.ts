/** JSON Schema as sent to a model (draft-07 subset; extra keys allowed). */
export interface JsonSchema {
	type?: string | string[];
	properties?: Record<string, JsonSchema>;
	items?: JsonSchema | JsonSchema[];
	required?: string[];
	description?: string;
	enum?: unknown[];
	default?: unknown;
	additionalProperties?: boolean | JsonSchema;
	anyOf?: JsonSchema[];
	oneOf?: JsonSchema[];
	[key: string]: unknown;
}
