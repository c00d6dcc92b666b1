/**
 * The note the output cap puts after a cut text, so the model (and a person) knows that
 * text is missing and how much. Global: a text may hold several (a tool's capped output
 * quoted in a nested agent's answer).
 */
export const truncationNotePattern =
	/\n\[Output truncated: showing the first (\d+) of (\d+) characters\.\]/g;

const noteAtEnd = /\n\[Output truncated: showing the first \d+ of (\d+) characters\.\]$/;

/**
 * Cuts a text the model will read to `maxLength` characters and says so in a note: what
 * `formatToolOutput` does for long output, and the agent's output boundary for every
 * observation. A text this function already cut to at most `maxLength` is returned as is;
 * cut again, its note keeps the length of the original text.
 */
export function truncateText(text: string, maxLength: number): string {
	if (text.length <= maxLength) return text;
	const note = noteAtEnd.exec(text);
	const body = note ? text.slice(0, note.index) : text;
	if (body.length <= maxLength) return text;
	const total = note ? Number(note[1]) : text.length;
	return `${body.slice(0, maxLength)}\n[Output truncated: showing the first ${maxLength} of ${total} characters.]`;
}
