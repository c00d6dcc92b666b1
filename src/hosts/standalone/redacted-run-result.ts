import type { Redactor } from '../../chat/redactor';
import type { NodeRunResult } from '../../tools/node-runner';

/**
 * A node run's result as it may leave a runner that holds credentials: its items' json and
 * its error with the secrets redacted. Binary data passes as it is (a file, not text the
 * node echoed); arrays and objects are copied only where something changed.
 */
export function redactedRunResult(result: NodeRunResult, redactor: Redactor): NodeRunResult {
	const items = result.items.map((item) => {
		const json = redactor.value(item.json);
		return json === item.json ? item : { ...item, json };
	});
	return result.error ? { items, error: redactor.value(result.error) } : { items };
}
