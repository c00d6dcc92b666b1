import { HttpError } from '../http/http-error';

/**
 * This server's extension fields of both APIs: what the agent node receives besides the
 * user's message, as `toolbridge run --input` / `--pin` give it. (Responses' own `input` is
 * its messages, hence the `agent_` prefix on both.)
 */
export interface AgentExtensionFields {
	/** `agent_input`: the item the agent node receives (`$json`); the user's message becomes its `chatInput`. */
	input?: Record<string, unknown>;
	/** `agent_pins`: other nodes' output by node name (an item's JSON or an array of them), over the export's pinData and `--pin`. */
	pins?: Record<string, unknown>;
}

/**
 * Reads `agent_input` and `agent_pins` from a request body (both optional).
 * @throws {HttpError} 400 when one is not a JSON object, or a pin is neither an object nor an array.
 */
export function agentExtensionFields(request: Record<string, unknown>): AgentExtensionFields {
	const fields: AgentExtensionFields = {};
	const { agent_input: input, agent_pins: pins } = request;
	if (input !== undefined && input !== null) {
		if (!isObject(input))
			throw badRequest(
				'"agent_input" must be a JSON object: the item the agent node receives ($json).',
				'agent_input',
			);
		fields.input = input;
	}
	if (pins !== undefined && pins !== null) {
		if (!isObject(pins))
			throw badRequest(
				'"agent_pins" must be a JSON object: node name → its output item (or array of items).',
				'agent_pins',
			);
		for (const [node, value] of Object.entries(pins))
			if (typeof value !== 'object' || value === null)
				throw badRequest(
					`"agent_pins" of node "${node}" must be a JSON object (one item) or an array of them.`,
					'agent_pins',
				);
		fields.pins = pins;
	}
	return fields;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function badRequest(message: string, param: string): HttpError {
	return new HttpError(400, message, 'invalid_request_error', {}, param);
}
