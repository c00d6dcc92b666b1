import { truncationNotePattern } from '../tools/truncate-text';

/** What a secret is replaced with. */
export const redactedText = '[REDACTED]';

/** Values shorter than this are not redacted: they would redact ordinary words and numbers. */
export const minSecretLength = 6;

/**
 * Shapes of credentials redacted even when nobody said they were secrets, each with the text
 * every match holds: a text without it is not scanned (most texts, e.g. a tool's output).
 */
const secretShapes: ReadonlyArray<{ pattern: RegExp; holds: string }> = [
	{ pattern: /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g, holds: 'Bearer' },
	{ pattern: /\bsk-[A-Za-z0-9_-]{16,}/g, holds: 'sk-' },
];

/** A cut secret shorter than this is left alone: the note after it says the text was cut, and 1–2 characters say nothing. */
const minCutPrefix = 3;

/** How deep {@link Redactor.value} and {@link Redactor.error} go into nested objects and causes. */
const maxDepth = 64;

/** What a {@link Redactor} matches, made from its secrets once per change. */
interface SecretForms {
	/** The secrets (long enough, distinct), longest first. */
	secrets: readonly string[];
	/** Each secret as it is, JSON-escaped and percent-encoded; longest first. */
	forms: string[];
	compiled?: RegExp;
}

/**
 * The one redaction boundary: every secret a run knows (the model's API key, header
 * values, the credential values of the agent and of its tool nodes), replaced by
 * `[REDACTED]` in whatever leaves — texts, JSON values and errors. Built once per run
 * from the known secrets; the chat client builds one from its key and headers.
 *
 * - Values shorter than {@link minSecretLength} are skipped; longer secrets are matched
 *   first, so a secret containing another is replaced whole.
 * - A secret also matches as it appears inside JSON text (escaped) and inside a URL
 *   (percent-encoded); bearer tokens and `sk-…` keys match by their shape.
 * - A secret cut by the output cap (its start just before the `[Output truncated …]`
 *   note) is replaced too.
 * - A secret that appears during a run (an OAuth2 access token n8n-core refreshed) is added
 *   with {@link learn}; a redactor made with {@link with} follows what its parent learns.
 */
export class Redactor {
	private readonly own = new Set<string>();
	/** Bumped when {@link own} changes; a child compares the sum along its chain. */
	private ownVersion = 0;
	private built: { version: number; forms: SecretForms } | undefined;

	/**
	 * @param secrets the values to replace.
	 * @param parent a redactor whose secrets, present and learned later, this one replaces too
	 *   (what {@link with} passes).
	 */
	constructor(
		secrets: Iterable<string | null | undefined> = [],
		private readonly parent?: Redactor,
	) {
		this.add(secrets);
	}

	/** The secrets it replaces (its own and its parent's), longest first. */
	get secrets(): readonly string[] {
		return this.current().secrets;
	}

	/**
	 * Adds secrets that became known after the redactor was made (a refreshed OAuth2 token):
	 * from now on they are replaced here and in every redactor made from this one with
	 * {@link with}.
	 */
	learn(secrets: Iterable<string | null | undefined>): void {
		this.add(secrets);
	}

	private add(secrets: Iterable<string | null | undefined>): void {
		for (const secret of secrets)
			if (typeof secret === 'string' && secret.length >= minSecretLength && !this.own.has(secret)) {
				this.own.add(secret);
				this.ownVersion += 1;
			}
	}

	/** Changes along the chain; versions only grow, so the sum changes whenever one does. */
	private version(): number {
		return this.ownVersion + (this.parent?.version() ?? 0);
	}

	/** The secrets and their forms, made again only after a secret was learned. */
	private current(): SecretForms {
		const version = this.version();
		if (this.built?.version === version) return this.built.forms;
		const distinct = new Set([...(this.parent?.secrets ?? []), ...this.own]);
		const secrets = [...distinct].sort((left, right) => right.length - left.length);
		const forms = new Set<string>();
		for (const secret of secrets) {
			forms.add(secret);
			forms.add(JSON.stringify(secret).slice(1, -1));
			forms.add(encodeURIComponent(secret));
		}
		const made: SecretForms = {
			secrets,
			forms: [...forms].sort((left, right) => right.length - left.length),
		};
		this.built = { version, forms: made };
		return made;
	}

	private get forms(): string[] {
		return this.current().forms;
	}

	/**
	 * The length of the longest text this redactor replaces by a fixed value (a secret, or its
	 * JSON-escaped or percent-encoded form); 0 without secrets. A stream that holds back one
	 * character less than this catches a secret split across chunks.
	 */
	get longestSecretText(): number {
		return this.forms[0]?.length ?? 0;
	}

	/**
	 * Where {@link text} would replace something in `text`: each secret (in any of its forms)
	 * and each credential shape, as `[start, end)` offsets in order, overlaps merged.
	 */
	secretSpans(text: string): Array<[start: number, end: number]> {
		const spans: Array<[number, number]> = [];
		const patterns = secretShapes.map((shape) => shape.pattern);
		if (this.forms.length > 0) patterns.push(this.formsPattern());
		for (const pattern of patterns)
			for (const match of text.matchAll(pattern))
				spans.push([match.index, match.index + match[0].length]);
		spans.sort((left, right) => left[0] - right[0]);
		const merged: Array<[number, number]> = [];
		for (const span of spans) {
			const last = merged.at(-1);
			if (last && span[0] < last[1]) last[1] = Math.max(last[1], span[1]);
			else merged.push(span);
		}
		return merged;
	}

	/**
	 * This redactor's secrets and `more`: e.g. the session's plus one agent's own key. The new
	 * redactor also replaces what this one {@link learn}s later.
	 */
	with(more: Iterable<string | null | undefined>): Redactor {
		return new Redactor(more, this);
	}

	/**
	 * The text with every secret replaced. A pattern runs only where its literal text occurs (a
	 * substring search is a fraction of a regular expression's pass): this runs on every tool
	 * observation, most of which hold no secret at all.
	 */
	text(text: string): string {
		let result = text;
		const { forms } = this.current();
		if (forms.length > 0) {
			if (holdsSecretForm(result, forms)) {
				result = result.replace(this.formsPattern(), redactedText);
			}
			if (result.includes('\n[Output truncated')) result = this.redactCutSecrets(result);
		}
		for (const { pattern, holds } of secretShapes)
			if (result.includes(holds)) result = result.replace(pattern, redactedText);
		return result;
	}

	/** One pattern for every form of every secret (made once); alternatives are longest first, so the longest match wins. */
	private formsPattern(): RegExp {
		const current = this.current();
		return (current.compiled ??= new RegExp(current.forms.map(escapeRegExp).join('|'), 'g'));
	}

	/**
	 * A JSON-like value with every string (and object key) redacted. Arrays and plain
	 * objects are copied only where something changed; other objects pass as they are.
	 */
	value<T>(value: T): T {
		return this.redactValue(value, 0) as T;
	}

	/**
	 * Redacts an error in place and returns it: `message`, `stack`, string fields (`description`,
	 * `responseBody` …), plain-object fields, and its `cause` chain. Class and `instanceof`
	 * stay; a thrown string comes back redacted.
	 */
	error<T>(error: T): T {
		return this.redactError(error, 0, new Set()) as T;
	}

	private redactValue(value: unknown, depth: number): unknown {
		if (typeof value === 'string') return this.text(value);
		if (typeof value !== 'object' || value === null || depth > maxDepth) return value;
		if (Array.isArray(value)) {
			let copy: unknown[] | undefined;
			value.forEach((entry, index) => {
				const redacted = this.redactValue(entry, depth + 1);
				if (redacted !== entry) (copy ??= [...value])[index] = redacted;
			});
			return copy ?? value;
		}
		if (!isPlainObject(value)) return value;
		let copy: Record<string, unknown> | undefined;
		for (const [key, entry] of Object.entries(value)) {
			const redactedKey = this.text(key);
			const redacted = this.redactValue(entry, depth + 1);
			if (redactedKey === key && redacted === entry) continue;
			copy ??= { ...value };
			if (redactedKey !== key) delete copy[key];
			copy[redactedKey] = redacted;
		}
		return copy ?? value;
	}

	private redactError(error: unknown, depth: number, seen: Set<object>): unknown {
		if (typeof error === 'string') return this.text(error);
		if (typeof error !== 'object' || error === null || seen.has(error) || depth > maxDepth)
			return error;
		if (!(error instanceof Error)) return this.redactValue(error, depth);
		seen.add(error);
		const fields = error as unknown as Record<string, unknown>;
		const keys = new Set(['message', 'stack', ...Object.keys(error)]);
		if ('cause' in error) keys.add('cause');
		for (const key of keys) {
			const field = fields[key];
			let redacted: unknown = field;
			if (typeof field === 'string') redacted = this.text(field);
			else if (field instanceof Error) redacted = this.redactError(field, depth + 1, seen);
			else if (Array.isArray(field) || isPlainObject(field))
				redacted = this.redactValue(field, depth + 1);
			if (redacted !== field) assign(fields, key, redacted);
		}
		return error;
	}

	/** Replaces a secret's start left just before an `[Output truncated …]` note: the cap cut the secret. */
	private redactCutSecrets(text: string): string {
		let result = '';
		let from = 0;
		for (const match of text.matchAll(truncationNotePattern)) {
			const cut = this.cutSecretLength(text.slice(from, match.index));
			result += `${text.slice(from, match.index - cut)}${cut > 0 ? redactedText : ''}${match[0]}`;
			from = match.index + match[0].length;
		}
		return result + text.slice(from);
	}

	/** The length of the longest end of `before` that is the start (not the whole) of a secret; 0 for none. */
	private cutSecretLength(before: string): number {
		const longest = this.forms[0].length;
		for (let length = Math.min(before.length, longest - 1); length >= minCutPrefix; length--) {
			const tail = before.slice(before.length - length);
			if (this.forms.some((form) => form.length > length && form.startsWith(tail))) return length;
		}
		return 0;
	}
}

function holdsSecretForm(text: string, forms: readonly string[]): boolean {
	for (const form of forms) if (text.includes(form)) return true;
	return false;
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	if (typeof value !== 'object' || value === null) return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
}

/** Sets a field of an error whatever its descriptor (our `readonly` fields are plain data; some libraries define getters). */
function assign(target: Record<string, unknown>, key: string, value: unknown): void {
	try {
		target[key] = value;
	} catch {
		try {
			Object.defineProperty(target, key, { value, configurable: true, writable: true });
		} catch {
			// A frozen field stays as it is; the message and stack were tried first.
		}
	}
}
