/**
 * `npm run bench:scan` — our `$fromAI` compiler against n8n's, in one process, on the same
 * synthetic node (500 string parameters, 50 with `$fromAI`, ~49 kB).
 *
 * ours:   collectFromAIMarkers + buildToolSchema (Zod and JSON Schema)
 * anchor: n8n-core `getSchema` (n8n-workflow `traverseNodeParameters` + n8n's Zod build)
 *         + LangChain `toJsonSchema` (what the model receives through LangChain)
 *
 * Prints medians and the ratio ours/anchor (goal ≤ 0.5). Timings are printed, never asserted.
 */
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { buildSyntheticNode } from '../fixtures/from-ai/synthetic-node';
import { collectFromAIMarkers } from '../src/from-ai/collect-from-ai-markers';
import { buildToolSchema } from '../src/schema/build-tool-schema';

const require = createRequire(__filename);
// Not exported from n8n-core's index; the deep path is fine in a bench.
const { getSchema } =
	require('n8n-core/dist/execution-engine/node-execution-context/utils/create-node-as-tool') as {
		getSchema: (node: unknown) => Parameters<typeof toJsonSchema>[0];
	};

const WARMUP = 300;
const ITERATIONS = 1500;

const node = buildSyntheticNode();

function ours(): unknown {
	const { markers, errors } = collectFromAIMarkers(node.parameters, { nodeName: node.name });
	if (errors.length > 0) throw errors[0];
	const schema = buildToolSchema(markers, { nodeName: node.name });
	return [schema.zod, schema.jsonSchema];
}

function anchor(): unknown {
	return toJsonSchema(getSchema(node));
}

function median(samples: number[]): number {
	const sorted = [...samples].sort((left, right) => left - right);
	const middle = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// Both build the same parameters.
const ourKeys = Object.keys(
	buildToolSchema(collectFromAIMarkers(node.parameters).markers).jsonSchema.properties,
);
const anchorKeys = Object.keys((anchor() as { properties: Record<string, unknown> }).properties);
if (ourKeys.join() !== anchorKeys.join())
	throw new Error(`Parameter keys differ: ${ourKeys.join()} vs ${anchorKeys.join()}`);

for (let index = 0; index < WARMUP; index++) {
	ours();
	anchor();
}
const ourTimes: number[] = [];
const anchorTimes: number[] = [];
// Interleaved so that machine noise hits both alike.
for (let index = 0; index < ITERATIONS; index++) {
	let start = performance.now();
	ours();
	ourTimes.push(performance.now() - start);
	start = performance.now();
	anchor();
	anchorTimes.push(performance.now() - start);
}

const ourMedian = median(ourTimes);
const anchorMedian = median(anchorTimes);
const bytes = JSON.stringify(node.parameters).length;
console.log(
	`scan bench: ${bytes} bytes of parameters, ${ourKeys.length} $fromAI parameters, ${ITERATIONS} iterations after ${WARMUP} warm-up`,
);
console.log(
	`ours   (collectFromAIMarkers + buildToolSchema):      median ${ourMedian.toFixed(3)} ms`,
);
console.log(
	`anchor (n8n-core getSchema + LangChain toJsonSchema): median ${anchorMedian.toFixed(3)} ms`,
);
console.log(`ratio ours/anchor: ${(ourMedian / anchorMedian).toFixed(3)} (goal ≤ 0.5)`);
