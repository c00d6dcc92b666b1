import { createInterface } from 'node:readline';
import { noReviewerDecision, type ToolReviewer } from 'n8n-nodes-toolbridge';

/** Options of {@link terminalReviewer}. */
export interface TerminalReviewerOptions {
	/** Where the question is answered (a terminal: `isTTY`). */
	input: NodeJS.ReadableStream & { isTTY?: boolean };
	/** Where the question is written (stderr: stdout is the answer). */
	write: (text: string) => void;
	/** `--approve-all`: approve every call without asking (scripts, CI). */
	approveAll?: boolean;
}

/**
 * The reviewer of `toolbridge run` for tools behind an n8n review gate: a question on the
 * terminal per call ("Approve? [y/N]", one at a time, the gate's message first); `y`/`yes`
 * approves, anything else declines (words other than `n`/`no` are passed on to the model as
 * the reason). `--approve-all` approves without asking. When stdin is not a terminal and the
 * flag is absent, every such call is refused — a script never runs a gated tool unasked.
 */
export function terminalReviewer(options: TerminalReviewerOptions): ToolReviewer {
	const { input, write } = options;
	if (options.approveAll) {
		return (request) => {
			write(`Approved (--approve-all): ${request.toolName} ${JSON.stringify(request.arguments)}\n`);
			return { approved: true };
		};
	}
	if (!input.isTTY) {
		return (request) => {
			write(
				`Not run: ${request.toolName} needs a person's approval ("${request.reviewNodeName}") and stdin is not a terminal; run it in a terminal or pass --approve-all.\n`,
			);
			return noReviewerDecision;
		};
	}
	let queue: Promise<unknown> = Promise.resolve();
	return (request, { signal }) => {
		const asked = queue.then(
			() =>
				new Promise<{ approved: boolean; reason?: string }>((resolve) => {
					const lines = createInterface({ input, terminal: false });
					let answered = false;
					const done = (decision: { approved: boolean; reason?: string }): void => {
						if (answered) return;
						answered = true;
						signal?.removeEventListener('abort', onAbort);
						resolve(decision);
						lines.close();
					};
					const onAbort = (): void => done({ approved: false, reason: 'the run stopped' });
					signal?.addEventListener('abort', onAbort, { once: true });
					write(
						`\n${request.message}\n\nApprove ${request.toolName} ("${request.reviewNodeName}": ${request.approveLabel} / ${request.declineLabel})? [y/N] `,
					);
					lines.once('line', (line) => {
						const answer = line.trim();
						if (/^(y|yes)$/i.test(answer)) return done({ approved: true });
						done({
							approved: false,
							reason: answer === '' || /^(n|no)$/i.test(answer) ? undefined : answer,
						});
					});
					lines.once('close', () => done({ approved: false }));
				}),
		);
		queue = asked;
		return asked;
	};
}
