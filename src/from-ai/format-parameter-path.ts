import type { ParameterPathSegment } from './from-ai-marker';

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The text form of a parameter path, for messages: `['options', 'fields', 0, 'value']` →
 * `options.fields[0].value`; a key that is no identifier as `["a b"]`; `[]` → `''`.
 * The one place a path becomes text; code keeps the segments.
 */
export function formatParameterPath(segments: readonly ParameterPathSegment[]): string {
	let path = '';
	for (const segment of segments) {
		if (typeof segment === 'number') path += `[${segment}]`;
		else if (IDENTIFIER.test(segment)) path += path === '' ? segment : `.${segment}`;
		else path += `[${JSON.stringify(segment)}]`;
	}
	return path;
}
