import type { IDataObject, IWorkflowExecuteAdditionalData } from 'n8n-workflow';
import type * as N8nCore from 'n8n-core';

// The variables a run adds, by the additional data n8n-core's contexts of that run hold.
const keysByRun = new WeakMap<IWorkflowExecuteAdditionalData, IDataObject>();

/**
 * Adds `keys` (e.g. `$` over other nodes' pinned output, see `nodeReferences`) to the variables
 * of every expression a node evaluates in the run made with `additionalData` — its parameters
 * when `WorkflowExecute` runs it, where no context is ours to extend. Needs
 * {@link installRunExpressionKeys} on the loaded n8n-core.
 */
export function addRunExpressionKeys(
	additionalData: IWorkflowExecuteAdditionalData,
	keys: IDataObject,
): void {
	keysByRun.set(additionalData, keys);
}

/**
 * Makes n8n-core's node contexts read {@link addRunExpressionKeys}: its `additionalKeys`
 * (memoized per context) gets the run's keys over n8n's own. n8n's getter is called on a
 * stand-in, so its memo lands there and ours on the context. Idempotent.
 */
export function installRunExpressionKeys(core: typeof N8nCore): void {
	let prototype: object | null = core.ExecuteContext.prototype;
	let descriptor: PropertyDescriptor | undefined;
	while (prototype && !descriptor) {
		descriptor = Object.getOwnPropertyDescriptor(prototype, 'additionalKeys');
		if (!descriptor) prototype = Object.getPrototypeOf(prototype) as object | null;
	}
	const original = descriptor?.get;
	if (!prototype || !original || (original as { extended?: true }).extended) return;
	const extended = function (this: { additionalData?: IWorkflowExecuteAdditionalData }) {
		const base = original.call(Object.create(this)) as IDataObject;
		const keys = this.additionalData && keysByRun.get(this.additionalData);
		const value = keys ? { ...base, ...keys } : base;
		Object.defineProperty(this, 'additionalKeys', { value, enumerable: false });
		return value;
	};
	Object.defineProperty(extended, 'extended', { value: true });
	Object.defineProperty(prototype, 'additionalKeys', { ...descriptor, get: extended });
}
