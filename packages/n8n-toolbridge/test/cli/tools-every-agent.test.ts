/**
 * Every agent, every missing node: `toolbridge tools` without --agent lists each agent's tools
 * under its agent; tools that cannot be served are one error naming all of them (node, type,
 * package or reason) with the one command that installs missing packages; --skip-unavailable
 * serves the rest and reports the skipped ones on stderr and in --json.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands';
import { runCli } from '../../src/cli/run-cli';

async function runInProcess(args: string[]) {
	let stdout = '';
	let stderr = '';
	const code = await runCli(args, commands, {
		stdout: (text) => (stdout += text),
		stderr: (text) => (stderr += text),
		env: {},
	});
	return { code, stdout, stderr };
}

const node = (name: string, type: string, typeVersion: number, parameters: object = {}) => ({
	id: name,
	name,
	type,
	typeVersion,
	position: [0, 0],
	parameters,
});
const toAgent = (agent: string) => ({ ai_tool: [[{ node: agent, type: 'ai_tool', index: 0 }]] });

const dir = mkdtempSync(join(tmpdir(), 'toolbridge-every-agent-'));
const file = join(dir, 'two-agents-missing-nodes.json');
writeFileSync(
	file,
	JSON.stringify({
		name: 'Research and ops',
		nodes: [
			node('Research agent', '@n8n/n8n-nodes-langchain.agent', 1.7, { options: {} }),
			node('Calculator', '@n8n/n8n-nodes-langchain.toolCalculator', 1),
			node('Weather', '@acme/n8n-nodes-weather.weatherTool', 1),
			node('Python code', '@n8n/n8n-nodes-langchain.toolCode', 1.3, {
				description: 'Uppercases',
				language: 'python',
				pythonCode: 'return _query.upper()',
			}),
			node('Ops agent', '@n8n/n8n-nodes-langchain.agent', 1.7, { options: {} }),
			node('Hash text', 'n8n-nodes-base.cryptoTool', 1, {
				action: 'hash',
				type: 'SHA256',
				value: "={{ $fromAI('text', 'Text to hash', 'string') }}",
				dataPropertyName: 'hash',
			}),
			node('Forecast', '@acme/n8n-nodes-weather.forecastTool', 1),
		],
		connections: {
			Calculator: toAgent('Research agent'),
			Weather: toAgent('Research agent'),
			'Python code': toAgent('Research agent'),
			'Hash text': toAgent('Ops agent'),
			Forecast: toAgent('Ops agent'),
		},
	}),
);
// Where the host finds n8n-nodes-base: the install command adds packages beside it.
const installPrefix = dirname(dirname(dirname(require.resolve('n8n-nodes-base/package.json'))));

describe('toolbridge tools: every agent, every unavailable node', () => {
	it('without --skip-unavailable: one error naming every unavailable tool of every agent and the install command (exit 2)', async () => {
		const { code, stdout, stderr } = await runInProcess(['tools', file]);
		expect(code).toBe(2);
		expect(stdout).toBe('');
		expect(stderr).toContain('toolbridge tools: 3 tools cannot be served:');
		expect(stderr).toContain(
			'Agent "Research agent":\n  - "Weather" (@acme/n8n-nodes-weather.weatherTool): it is of package @acme/n8n-nodes-weather, which is not installed.',
		);
		expect(stderr).toContain(
			`  - "Python code" (@n8n/n8n-nodes-langchain.toolCode): its code is Python, which runs in n8n's Python task runner`,
		);
		expect(stderr).toContain(
			'Agent "Ops agent":\n  - "Forecast" (@acme/n8n-nodes-weather.forecastTool): it is of package @acme/n8n-nodes-weather, which is not installed.',
		);
		expect(stderr).toContain(
			`Add the missing packages with: npm install --prefix ${installPrefix} --ignore-scripts @acme/n8n-nodes-weather`,
		);
	});

	it('--skip-unavailable: every agent with its tools, the skipped ones on stderr (exit 0)', async () => {
		const { code, stdout, stderr } = await runInProcess(['tools', file, '--skip-unavailable']);
		expect(code).toBe(0);
		expect(stdout).toContain('Agent "Research agent" (@n8n/n8n-nodes-langchain.agent): 1 tool');
		expect(stdout).toContain(
			'Calculator  (node "Calculator", @n8n/n8n-nodes-langchain.toolCalculator)',
		);
		expect(stdout).toContain('Agent "Ops agent" (@n8n/n8n-nodes-langchain.agent): 1 tool');
		expect(stdout.indexOf('Research agent')).toBeLessThan(stdout.indexOf('Ops agent'));
		expect(stderr).toContain('Skipped 3 tools that cannot be served (--skip-unavailable):');
		expect(stderr).toContain(
			'  - agent "Ops agent": "Forecast" (@acme/n8n-nodes-weather.forecastTool): it is of package @acme/n8n-nodes-weather, which is not installed.',
		);
	});

	it('--json --skip-unavailable: the groups, each with its tools and what was skipped and why', async () => {
		const { code, stdout } = await runInProcess(['tools', file, '--skip-unavailable', '--json']);
		expect(code).toBe(0);
		const { agents } = JSON.parse(stdout);
		expect(
			agents.map((agent: { agent: string; tools: Array<{ name: string }> }) => [
				agent.agent,
				agent.tools.map((tool) => tool.name),
			]),
		).toEqual([
			['Research agent', ['Calculator']],
			['Ops agent', ['Hash_text']],
		]);
		expect(agents[0].skipped).toEqual([
			expect.objectContaining({
				agentName: 'Research agent',
				nodeName: 'Weather',
				nodeType: '@acme/n8n-nodes-weather.weatherTool',
				reason: 'PACKAGE_MISSING',
				packageName: '@acme/n8n-nodes-weather',
			}),
			expect.objectContaining({ nodeName: 'Python code', reason: 'NODE_UNSUPPORTED' }),
		]);
		expect(agents[1].skipped).toEqual([
			expect.objectContaining({ nodeName: 'Forecast', reason: 'PACKAGE_MISSING' }),
		]);
	});

	it('call and --agent: the same rule, for the chosen agent', async () => {
		const refused = await runInProcess(['call', file, 'Calculator', '--agent', 'Research agent']);
		expect(refused.code).toBe(2);
		expect(refused.stderr).toContain('2 tools cannot be served');
		const served = await runInProcess([
			'call',
			file,
			'Calculator',
			'--agent',
			'Research agent',
			'--args',
			'{"input":"6*7"}',
			'--skip-unavailable',
		]);
		expect(served).toMatchObject({ code: 0, stdout: '42\n' });
		expect(served.stderr).toContain('Skipped 2 tools');
		const ops = await runInProcess(['tools', file, '--agent', 'Ops agent', '--skip-unavailable']);
		expect(ops.stdout).not.toContain('Research agent');
	});
});
