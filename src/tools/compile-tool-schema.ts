import { FromAIError } from '../errors/from-ai-error';
import { ToolBuildError, type ToolBuildProblem } from '../errors/tool-build-error';
import { collectFromAIMarkers } from '../from-ai/collect-from-ai-markers';
import type { FromAIParameterMarker } from '../from-ai/from-ai-marker';
import { buildToolSchema, type ToolSchema } from '../schema/build-tool-schema';

/** `$fromAI` errors of one node as tool build problems (node name, parameter path, position). */
export function toolBuildProblems(
	errors: readonly FromAIError[],
	nodeName: string,
): ToolBuildProblem[] {
	return errors.map((error) => ({
		nodeName,
		path: error.path,
		index: error.index,
		message: error.detail,
		code: error.code,
	}));
}

/**
 * A node's tool schema compiled from the `$fromAI` markers in its parameters, with the
 * markers themselves (for substitution at call time).
 *
 * @throws {ToolBuildError} when a `$fromAI` call is malformed or two markers use one key
 *   incompatibly; every problem names the node, the parameter path and the position.
 */
export function compileToolSchema(
	nodeName: string,
	parameters: unknown,
): { schema: ToolSchema; markers: FromAIParameterMarker[] } {
	const { markers, errors } = collectFromAIMarkers(parameters, { nodeName });
	if (errors.length > 0) throw new ToolBuildError(toolBuildProblems(errors, nodeName));
	try {
		return { schema: buildToolSchema(markers, { nodeName }), markers };
	} catch (error) {
		if (error instanceof FromAIError)
			throw new ToolBuildError(toolBuildProblems([error], nodeName), { cause: error });
		throw error;
	}
}

/** The build error for a manual tool description whose expression could not be resolved. */
export function toolDescriptionError(nodeName: string, error: unknown): ToolBuildError {
	return new ToolBuildError(
		[
			{
				nodeName,
				path: 'toolDescription',
				message: `The tool description could not be resolved: ${(error as Error).message}`,
			},
		],
		{ cause: error },
	);
}
