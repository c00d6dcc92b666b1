// @ts-check
/**
 * n8n's LangChain tool sub-nodes under our AgentOrchestrator in the real n8n 2.41.1 (which ships
 * `@n8n/n8n-nodes-langchain`): n8n's Calculator and a JavaScript Code Tool. The scripted model
 * checks the schemas it is offered (n8n's: one `input` string each), calls both tools, and
 * answers with what they returned, so the answer is only right if n8n really ran them.
 */
import { matchStreaming, assertToolSchema, toolMessages } from '../lib/fake-model.mjs';
import {
	agentOrchestratorNode,
	connections,
	node,
	nodeOutput,
	runDataOf,
	workflow,
} from '../lib/workflows.mjs';

const CODE_DESCRIPTION = 'Uppercases the text given as input';

/**
 * The scripted model: request 1 → assert n8n's schemas, call Calculator (6*7) and the Code Tool
 * ("hello from n8n"); request 2 → answer from the two tool results.
 * @returns {(request: any, fake: any) => any}
 */
function calculatorAndCodeModel() {
	return (request, fake) => {
		const body = request.body;
		assertToolSchema(body, 'Calculator', { properties: { input: 'string' } });
		assertToolSchema(body, 'Shout', {
			properties: { input: 'string' },
			description: CODE_DESCRIPTION,
		});
		const results = toolMessages(body);
		if (results.length === 0) {
			return matchStreaming(
				request,
				fake.toolCallReply([
					{ id: 'call_calc', name: 'Calculator', arguments: { input: '6*7' } },
					{ id: 'call_code', name: 'Shout', arguments: { input: 'hello from n8n' } },
				]),
			);
		}
		const calc = results.find((result) => result.tool_call_id === 'call_calc')?.content ?? '';
		const code = results.find((result) => result.tool_call_id === 'call_code')?.content ?? '';
		if (!/\b42\b/.test(calc) || !code.includes('HELLO FROM N8N'))
			throw new Error(`unexpected tool results: ${JSON.stringify(results).slice(0, 800)}`);
		return matchStreaming(request, fake.textReply('Product: 42. Shout: HELLO FROM N8N.'));
	};
}

/**
 * AgentOrchestrator (full mode, OpenRouter credential → fake) + n8n's Calculator + a Code Tool
 * (JavaScript, n8n's task runner). `engine`: each call is a run of the tool node in n8n's
 * execution data; `inProcess`: the orchestrator calls the tools n8n's supplyData gave it.
 * @param {'engine' | 'inProcess'} toolExecution
 * @returns {(scope: import('../lib/context.mjs').ScenarioScope) => Promise<void>}
 */
export function orchestratorLangChainTools(toolExecution) {
	return async (scope) => {
		const fake = await scope.startFake(calculatorAndCodeModel());
		const result = await scope.importAndExecute({
			fake,
			build: (credential) =>
				workflow({
					id: `wf-${scope.id}`.slice(0, 21),
					name: `E2E ${scope.id}`,
					nodes: [
						node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
						agentOrchestratorNode(credential, {
							mode: 'full',
							model: 'fake/e2e-model',
							prompt: 'Multiply 6 by 7 and shout a greeting.',
							options: { toolExecution },
						}),
						node('Calculator', '@n8n/n8n-nodes-langchain.toolCalculator', 1, {}),
						node('Shout', '@n8n/n8n-nodes-langchain.toolCode', 1.3, {
							description: CODE_DESCRIPTION,
							language: 'javaScript',
							jsCode: 'return query.toUpperCase();',
						}),
					],
					connections: connections([
						['Start', 'Agent Orchestrator'],
						['Calculator', 'Agent Orchestrator', 'ai_tool'],
						['Shout', 'Agent Orchestrator', 'ai_tool'],
					]),
				}),
		});
		fake.assertNoFailures();
		if (fake.requests.length !== 2)
			throw new Error(`the fake got ${fake.requests.length} requests, expected 2`);
		const [output] = nodeOutput(result, 'Agent Orchestrator');
		const answer = JSON.stringify(output?.output ?? output);
		if (!answer.includes('42') || !answer.includes('HELLO FROM N8N'))
			throw new Error(`unexpected answer: ${answer.slice(0, 500)}`);
		const runData = runDataOf(result);
		for (const name of ['Calculator', 'Shout']) {
			if ((runData[name]?.length ?? 0) < 1)
				throw new Error(`no run of '${name}' in n8n's execution data: ${Object.keys(runData)}`);
		}
		scope.note(
			`n8n's Calculator and Code Tool ran (${toolExecution}): the model read 42 and HELLO FROM N8N`,
		);
	};
}
