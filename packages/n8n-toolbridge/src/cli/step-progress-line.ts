import type { AgentStep } from 'n8n-nodes-toolbridge';

const maxShown = 120;

/** One stderr line of `toolbridge run` for a finished tool step: number, tool, arguments, outcome, time. */
export function stepProgressLine(step: AgentStep, number: number): string {
	const args = typeof step.arguments === 'string' ? step.arguments : JSON.stringify(step.arguments);
	const outcome = step.isError ? `error: ${oneLine(step.result)}` : oneLine(step.result);
	return `step ${number} (model call ${step.iteration}): ${step.tool} ${shorten(args)} → ${shorten(outcome)} [${Math.round(step.durationMs)} ms]`;
}

function oneLine(text: string): string {
	return text.replace(/\s+/g, ' ').trim();
}

function shorten(text: string): string {
	return text.length > maxShown ? `${text.slice(0, maxShown)}…` : text;
}
