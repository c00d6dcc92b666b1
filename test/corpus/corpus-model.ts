/**
 * The model of the corpus's agent runs: a scripted stand-in speaking each provider's own wire
 * format (see corpus-model-wire.ts), served on the loopback service and, through nock, on the
 * provider hosts a chat-model credential has no base-URL field for. It records every request.
 * Per agent run it is given a script: the offline tool to ask for (once, with arguments it
 * checks against the JSON schema the request offers for that tool) and the final answer.
 */
import nock from 'nock';
import { validateJson, type JsonSchema } from '../../src/index';
import { asksForJson, requestedSchema, sampleFromSchema } from './corpus-json-answer';
import { wireOf, type ModelReply } from './corpus-model-wire';

/** What the model does in one agent run. */
export interface ModelScript {
	/** The tool to ask for once, when a request offers it. */
	tool?: string;
	args?: Record<string, unknown>;
	/** The final answer; where the request asks for JSON, a value its schema accepts instead. */
	answer: string;
}

/** One request the model received: its wire, its user texts. */
export interface ModelRequest {
	wire: string;
	path: string;
	userTexts: string[];
}

/** Provider hosts whose credentials have no base-URL field: nock sends them to the model. */
const PROVIDER_HOSTS = [
	'https://api.groq.com',
	'https://api.mistral.ai',
	'https://api.openai.com',
	'https://openrouter.ai',
	'https://api.anthropic.com',
	'https://generativelanguage.googleapis.com',
	'https://api.deepseek.com',
	'https://api.x.ai',
];

/** The scripted model; one instance serves the whole corpus run, one script at a time. */
export class CorpusModel {
	private script: ModelScript = { answer: 'fake answer' };
	/** The model requests of the current run, in order. */
	requests: ModelRequest[] = [];
	/** Whether the scripted tool was asked for in this run. */
	asked = false;
	/** Why the scripted arguments do not fit the schema the request offered (empty: they fit). */
	argumentProblems: string[] = [];

	/** Starts a run: a new script, no requests. */
	begin(script: ModelScript): void {
		this.script = script;
		this.requests = [];
		this.asked = false;
		this.argumentProblems = [];
	}

	/** Answers a model request (path and JSON body text); undefined when no model speaks on the path. */
	answer(path: string, bodyText: string): ModelReply | undefined {
		const wire = wireOf(path);
		if (!wire) return undefined;
		let body: unknown;
		try {
			body = JSON.parse(bodyText);
		} catch {
			return { status: 400, headers: {}, body: '{"error":{"message":"body is not JSON"}}' };
		}
		this.requests.push({ wire: wire.name, path, userTexts: wire.userTexts(body) });
		const schema = this.script.tool ? wire.tools(body).get(this.script.tool) : undefined;
		if (this.script.tool && schema !== undefined && !this.asked && !wire.hasToolResult(body)) {
			this.asked = true;
			const args = this.script.args ?? {};
			const check = validateJson(args, (schema ?? {}) as JsonSchema);
			if (!check.valid) this.argumentProblems = check.errors;
			return wire.reply(path, body, { tool: { name: this.script.tool, args } });
		}
		return wire.reply(path, body, { text: this.finalAnswer(body) });
	}

	/** The script's answer, or JSON where the request asks for it (the output parser's schema). */
	private finalAnswer(body: unknown): string {
		const schema = requestedSchema(body);
		if (schema) return JSON.stringify(sampleFromSchema(schema));
		if (asksForJson(body)) return JSON.stringify({ answer: this.script.answer });
		return this.script.answer;
	}

	/** Whether `text` is in a user turn of the run's first request (the outermost agent's). */
	userMessageHas(text: string): boolean {
		return (this.requests[0]?.userTexts ?? []).some((each) => each.includes(text));
	}

	/** Sends every model request to the fixed provider hosts to this model, through nock. */
	interceptProviderHosts(): void {
		for (const origin of PROVIDER_HOSTS) {
			nock(origin)
				.persist()
				.post(/.*/)
				.reply((uri, body) => {
					const text = typeof body === 'string' ? body : JSON.stringify(body);
					const reply = this.answer(uri, text) ?? { status: 404, headers: {}, body: '{}' };
					return [reply.status, reply.body, reply.headers];
				});
		}
	}
}
