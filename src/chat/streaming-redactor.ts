import type { Redactor } from './redactor';

/** Characters a bearer token or `sk-…` key is made of (the redactor's credential shapes). */
const credentialCharacter = /[A-Za-z0-9._~+/=-]/;

/** A run of credential characters longer than this at the end of the text is let through. */
const maxHeldRun = 512;

/**
 * Redacts text that arrives in pieces (a model's streamed answer) so that a secret split
 * across pieces is caught too: each {@link push} returns what is safe to send now, and keeps
 * back the end that could still become a secret — one character less than the redactor's
 * longest secret text, and the credential-shaped word being written (`sk-…`, `Bearer …`; up to
 * 512 characters). {@link flush} returns the rest at the end of the stream. What comes out,
 * joined, is the redacted whole text.
 */
export class StreamingRedactor {
	private pending = '';

	constructor(private readonly redactor: Redactor) {}

	/** Takes the next piece; returns the redacted text that can be sent now (maybe ''). */
	push(piece: string): string {
		this.pending += piece;
		let cut = Math.min(
			this.pending.length - Math.max(this.redactor.longestSecretText - 1, 0),
			this.trailingWordStart(),
		);
		if (cut <= 0) return '';
		// A complete secret over the cut is sent whole: it cannot grow into a longer one (that
		// would start inside the held-back end).
		for (const [start, end] of this.redactor.secretSpans(this.pending)) {
			if (start >= cut) break;
			if (end > cut) cut = end;
		}
		const ready = this.pending.slice(0, cut);
		this.pending = this.pending.slice(cut);
		return this.redactor.text(ready);
	}

	/** The held-back end, redacted (the stream ended). */
	flush(): string {
		const rest = this.pending;
		this.pending = '';
		return rest === '' ? '' : this.redactor.text(rest);
	}

	/** Where the credential-shaped word at the end of the pending text begins (with a `Bearer ` before it). */
	private trailingWordStart(): number {
		const text = this.pending;
		let start = text.length;
		while (
			start > 0 &&
			text.length - start < maxHeldRun &&
			credentialCharacter.test(text[start - 1])
		)
			start -= 1;
		if (text.length - start >= maxHeldRun) return text.length;
		const bearer = /\bBearer\s+$/.exec(text.slice(Math.max(0, start - 64), start));
		return bearer ? start - bearer[0].length : start;
	}
}
