import { argumentChecks } from '../errors/invalid-argument-error';
import { FromAIKeyConflictError, type FromAIError } from '../errors/from-ai-error';
import type { FromAIJsonValue, FromAIMarker, FromAIType } from '../from-ai/from-ai-marker';

/** One tool parameter: every marker that used the key, merged. */
export interface ToolParameter {
	key: string;
	type: FromAIType;
	description?: string;
	defaultValue?: FromAIJsonValue;
	/** Parameter paths (text, for messages) of the markers merged into this one (in order, may repeat). */
	paths: string[];
}

/** A marker as `buildToolSchema` takes it: with its parameter path (text, for messages) when it has one. */
export type SchemaMarker = FromAIMarker & { path?: string };

/** Options of {@link mergeFromAIMarkers}. */
export interface MergeFromAIMarkersOptions {
	/** Put into conflict errors so the message names the node. */
	nodeName?: string;
}

/**
 * Merges markers by key, in order of first use. Duplicates merge when compatible: the same
 * type, equal descriptions or one absent, equal defaults or one absent. (n8n instead lets
 * the last default win silently, and treats `''` and no description as different.)
 *
 * @returns the parameters and one FromAIKeyConflictError per incompatible duplicate, naming
 * both paths; never throws.
 */
export function mergeFromAIMarkers(
	markers: readonly SchemaMarker[],
	options: MergeFromAIMarkersOptions = {},
): { parameters: ToolParameter[]; errors: FromAIError[] } {
	argumentChecks('mergeFromAIMarkers').array(markers, 'markers');
	const byKey = new Map<string, ToolParameter>();
	const errors: FromAIError[] = [];
	for (const marker of markers) {
		const path = marker.path ?? '';
		const existing = byKey.get(marker.key);
		if (!existing) {
			const parameter: ToolParameter = { key: marker.key, type: marker.type, paths: [path] };
			if (marker.description !== undefined) parameter.description = marker.description;
			if (marker.defaultValue !== undefined) parameter.defaultValue = marker.defaultValue;
			byKey.set(marker.key, parameter);
			continue;
		}
		const conflict = findConflict(existing, marker);
		if (conflict) {
			const firstPath = existing.paths[0];
			const where = (at: string): string => (at === '' ? 'another call' : `'${at}'`);
			errors.push(
				new FromAIKeyConflictError(
					marker.key,
					[firstPath, path],
					`Key '${marker.key}' is used at ${where(firstPath)} and at ${where(path)} with different ${conflict}. Allowed: every call with the same key has the same type, equal descriptions (or only one has one) and equal defaults (or only one has one).`,
					{ path, index: marker.start, nodeName: options.nodeName },
				),
			);
			continue;
		}
		existing.paths.push(path);
		if (existing.description === undefined && marker.description !== undefined)
			existing.description = marker.description;
		if (existing.defaultValue === undefined && marker.defaultValue !== undefined)
			existing.defaultValue = marker.defaultValue;
	}
	return { parameters: [...byKey.values()], errors };
}

function findConflict(existing: ToolParameter, marker: SchemaMarker): string | undefined {
	if (existing.type !== marker.type) return `types ('${existing.type}' and '${marker.type}')`;
	if (
		existing.description !== undefined &&
		marker.description !== undefined &&
		existing.description !== marker.description
	) {
		return `descriptions (${JSON.stringify(existing.description)} and ${JSON.stringify(marker.description)})`;
	}
	if (
		existing.defaultValue !== undefined &&
		marker.defaultValue !== undefined &&
		!jsonEqual(existing.defaultValue, marker.defaultValue)
	) {
		return `defaults (${JSON.stringify(existing.defaultValue)} and ${JSON.stringify(marker.defaultValue)})`;
	}
	return undefined;
}

function jsonEqual(left: FromAIJsonValue, right: FromAIJsonValue): boolean {
	if (left === right) return true;
	if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null)
		return false;
	if (Array.isArray(left) !== Array.isArray(right)) return false;
	if (Array.isArray(left) && Array.isArray(right)) {
		return (
			left.length === right.length && left.every((item, index) => jsonEqual(item, right[index]))
		);
	}
	const leftObject = left as Record<string, FromAIJsonValue>;
	const rightObject = right as Record<string, FromAIJsonValue>;
	const keys = Object.keys(leftObject);
	return (
		keys.length === Object.keys(rightObject).length &&
		keys.every(
			(key) =>
				Object.prototype.hasOwnProperty.call(rightObject, key) &&
				jsonEqual(leftObject[key], rightObject[key]),
		)
	);
}
