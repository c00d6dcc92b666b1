/** Branches, routing, loops, merges, code, several triggers; edits of existing workflows; answers that never become valid. */
import { lookup, reply, say, search, type BuilderEvalCase } from '../eval-case';

const vipOrders = (ifVersion: number) => `const order = trigger({
  type: 'n8n-nodes-base.webhook',
  version: 2.1,
  config: { name: 'New order', parameters: { httpMethod: 'POST', path: 'orders', options: {} } }
});

const isBig = node({
  type: 'n8n-nodes-base.if',
  version: ${ifVersion},
  config: {
    name: 'Over 100?',
    parameters: {
      conditions: {
        options: { caseSensitive: true, leftValue: '', typeValidation: 'loose' },
        conditions: [{ leftValue: expr('{{ $json.body.total }}'), operator: { type: 'number', operation: 'gt' }, rightValue: 100 }],
        combinator: 'and'
      },
      options: {}
    }
  }
});

const vip = node({
  type: 'n8n-nodes-base.slack',
  version: 2.3,
  config: {
    name: 'Tell sales',
    parameters: {
      resource: 'message',
      operation: 'post',
      select: 'channel',
      channelId: { __rl: true, mode: 'name', value: '#big-orders' },
      text: expr('Order {{ $json.body.id }} over 100: {{ $json.body.total }} from {{ $json.body.customer }}'),
      otherOptions: {}
    },
    credentials: { slackApi: newCredential('Slack bot') }
  }
});

const thanks = node({
  type: 'n8n-nodes-base.gmail',
  version: 2.1,
  config: {
    name: 'Thank customer',
    parameters: {
      resource: 'message',
      operation: 'send',
      sendTo: expr('{{ $json.body.email }}'),
      subject: 'Thank you for your order',
      emailType: 'text',
      message: expr('Thanks for order {{ $json.body.id }}! We will ship it soon.'),
      options: {}
    },
    credentials: { gmailOAuth2: newCredential('Gmail account') }
  }
});

export default workflow('order-routing', 'Route orders by total')
  .add(order)
  .to(isBig.onTrue(vip).onFalse(thanks));`;

const ticketRoutingFlat = `const ticket = trigger({
  type: 'n8n-nodes-base.webhook',
  version: 2.1,
  config: { name: 'New ticket', parameters: { httpMethod: 'POST', path: 'tickets', options: {} } }
});

const byPriority = switchCase({
  version: 3.2,
  config: {
    name: 'By priority',
    parameters: {
      rules: {
        values: [
          { outputKey: 'urgent', conditions: { options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' }, conditions: [{ leftValue: expr('{{ $json.body.priority }}'), operator: { type: 'string', operation: 'equals' }, rightValue: 'urgent' }], combinator: 'and' }, renameOutput: true },
          { outputKey: 'normal', conditions: { options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' }, conditions: [{ leftValue: expr('{{ $json.body.priority }}'), operator: { type: 'string', operation: 'equals' }, rightValue: 'normal' }], combinator: 'and' }, renameOutput: true }
        ]
      },
      options: { fallbackOutput: 'extra', renameFallbackOutput: 'Other' }
    }
  }
});

`;

const slackPost = (variable: string, name: string, channel: string) => `const ${variable} = node({
  type: 'n8n-nodes-base.slack',
  version: 2.3,
  config: {
    name: '${name}',
    parameters: {
      resource: 'message',
      operation: 'post',
      select: 'channel',
      channelId: { __rl: true, mode: 'name', value: '${channel}' },
      text: expr('Ticket {{ $json.body.id }}: {{ $json.body.subject }}'),
      otherOptions: {}
    },
    credentials: { slackApi: newCredential('Slack bot') }
  }
});`;

const ticketRoutingFixed = `${ticketRoutingFlat}

${slackPost('urgent', 'Page on-call', '#on-call')}

${slackPost('normal', 'Post to support', '#support')}

const other = node({
  type: 'n8n-nodes-base.noOp',
  version: 1,
  config: { name: 'Ignore other' }
});

export default workflow('ticket-routing', 'Route tickets by priority')
  .add(ticket)
  .to(byPriority.onCase(0, urgent).onCase(1, normal).onCase(2, other));`;

const priorityIs = (value: string) =>
	`{ options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' }, conditions: [{ leftValue: expr('{{ $json.body.priority }}'), operator: { type: 'string', operation: 'equals' }, rightValue: '${value}' }], combinator: 'and' }`;

const ticketRoutingWithHelper = ticketRoutingFixed
	.replace(priorityIs('urgent'), "isPriority('urgent')")
	.replace(priorityIs('normal'), "isPriority('normal')")
	.replace(
		'const byPriority = switchCase({',
		`const isPriority = (value) => (${priorityIs('${value}').replace("'${value}'", 'value')});\n\nconst byPriority = switchCase({`,
	);

const batchLoop = (withLoop: boolean) => `const start = trigger({
  type: 'n8n-nodes-base.manualTrigger',
  version: 1,
  config: { name: 'Start' }
});

const getUsers = node({
  type: 'n8n-nodes-base.httpRequest',
  version: 4.2,
  config: { name: 'Get users', parameters: { url: 'https://jsonplaceholder.typicode.com/users', options: {} } }
});
${
	withLoop
		? `
const eachUser = splitInBatches({ version: 3, config: { name: 'Each user', parameters: { batchSize: 1, options: {} } } });
`
		: ''
}
const syncUser = node({
  type: 'n8n-nodes-base.httpRequest',
  version: 4.2,
  config: {
    name: 'Sync user',
    parameters: {
      method: 'POST',
      url: 'https://crm.example.com/api/contacts',
      sendBody: true,
      contentType: 'json',
      specifyBody: 'json',
      jsonBody: expr('{{ JSON.stringify({ name: $json.name, email: $json.email, company: $json.company.name }) }}'),
      options: {}
    }
  }
});

const pause = node({
  type: 'n8n-nodes-base.wait',
  version: 1.1,
  config: { name: 'Pause', parameters: { amount: 1 } }
});

const done = node({
  type: 'n8n-nodes-base.noOp',
  version: 1,
  config: { name: 'Done' }
});

export default workflow('sync-users', 'Sync users one by one')
  .add(start)
  .to(getUsers)
${
	withLoop
		? '  .to(eachUser.onDone(done).onEachBatch(syncUser.to(pause).to(nextBatch(eachUser))));'
		: '  .to(syncUser)\n  .to(pause)\n  .to(syncUser);'
}`;

const mergeApis = `const start = trigger({
  type: 'n8n-nodes-base.manualTrigger',
  version: 1,
  config: { name: 'Start' }
});

const users = node({
  type: 'n8n-nodes-base.httpRequest',
  version: 4.2,
  config: { name: 'Get user', parameters: { url: 'https://jsonplaceholder.typicode.com/users/1', options: {} } }
});

const todos = node({
  type: 'n8n-nodes-base.httpRequest',
  version: 4.2,
  config: { name: 'Get todo', parameters: { url: 'https://jsonplaceholder.typicode.com/todos/1', options: {} } }
});

const combine = merge({
  version: 3.2,
  config: { name: 'Combine', parameters: { mode: 'combine', combineBy: 'combineByPosition', options: {} } }
});

const shape = node({
  type: 'n8n-nodes-base.set',
  version: 3.4,
  config: {
    name: 'Shape result',
    parameters: {
      mode: 'manual',
      assignments: {
        assignments: [
          { id: 'who', name: 'who', value: expr('{{ $json.name }}'), type: 'string' },
          { id: 'task', name: 'task', value: expr('{{ $json.title }}'), type: 'string' }
        ]
      },
      options: {}
    }
  }
});

export default workflow('merge-apis', 'Combine a user and a todo')
  .add(start)
  .to(users.to(combine.input(0)))
  .add(start)
  .to(todos.to(combine.input(1)))
  .add(combine)
  .to(shape);`;

const codeStats = `const weekly = trigger({
  type: 'n8n-nodes-base.scheduleTrigger',
  version: 1.2,
  config: { name: 'Mondays', parameters: { rule: { interval: [{ field: 'weeks', triggerAtDay: [1], triggerAtHour: 9 }] } } }
});

const repos = node({
  type: 'n8n-nodes-base.httpRequest',
  version: 4.2,
  config: { name: 'Get repositories', parameters: { url: 'https://api.github.com/orgs/n8n-io/repos?per_page=100', options: {} } }
});

const stats = node({
  type: 'n8n-nodes-base.code',
  version: 2,
  config: {
    name: 'Star statistics',
    parameters: {
      mode: 'runOnceForAllItems',
      language: 'javaScript',
      jsCode: \`const repos = $input.all().map((item) => item.json);
const stars = repos.reduce((sum, repo) => sum + repo.stargazers_count, 0);
const top = [...repos].sort((a, b) => b.stargazers_count - a.stargazers_count).slice(0, 3);
return [{ json: { repositories: repos.length, stars, top: top.map((repo) => \\\`\\\${repo.name} (\\\${repo.stargazers_count})\\\`).join(', ') } }];\`
    }
  }
});

const announce = node({
  type: 'n8n-nodes-base.discord',
  version: 2,
  config: {
    name: 'Announce on Discord',
    parameters: {
      authentication: 'webhook',
      content: expr('Weekly stars: {{ $json.stars }} across {{ $json.repositories }} repositories. Top: {{ $json.top }}')
    },
    credentials: { discordWebhookApi: newCredential('Discord webhook') }
  }
});

export default workflow('weekly-stars', 'Weekly GitHub star statistics')
  .add(weekly)
  .to(repos)
  .to(stats)
  .to(announce);`;

const twoTriggers = (
	auth: 'httpHeaderAuth' | 'httpTemplatedCustomAuth',
) => `const manualRun = trigger({
  type: 'n8n-nodes-base.webhook',
  version: 2.1,
  config: { name: 'Run on request', parameters: { httpMethod: 'POST', path: 'refresh-cache', options: {} } }
});

const nightly = trigger({
  type: 'n8n-nodes-base.scheduleTrigger',
  version: 1.2,
  config: { name: 'Nightly', parameters: { rule: { interval: [{ field: 'days', triggerAtHour: 3 }] } } }
});

const stamp = node({
  type: 'n8n-nodes-base.set',
  version: 3.4,
  config: {
    name: 'Stamp request',
    parameters: {
      mode: 'manual',
      assignments: { assignments: [{ id: 'requestedAt', name: 'requestedAt', value: expr('{{ $now.toISO() }}'), type: 'string' }] },
      options: {}
    }
  }
});

const refresh = node({
  type: 'n8n-nodes-base.httpRequest',
  version: 4.2,
  config: {
    name: 'Refresh cache',
    parameters: { method: 'POST', url: 'https://cdn.example.com/api/purge', authentication: 'genericCredentialType', genericAuthType: '${auth}', options: {} },
    credentials: { ${auth}: newCredential('CDN token') }
  }
});

export default workflow('cache-refresh', 'Refresh the CDN cache nightly or on request')
  .add(manualRun)
  .to(stamp)
  .to(refresh)
  .add(nightly)
  .to(stamp);`;

const editedAgent = `const openRouter_Chat_Model = languageModel({ type: '@n8n/n8n-nodes-langchain.lmChatOpenRouter', version: 1, config: { name: 'OpenRouter Chat Model', parameters: { model: 'anthropic/claude-3.5-haiku', options: { temperature: 0.1, maxTokens: 512 } }, credentials: { openRouterApi: newCredential('OpenRouter account', 'OpenRouterCred01') } } });
const hash_text = tool({ type: 'n8n-nodes-base.cryptoTool', version: 2, config: { name: 'Hash text', parameters: { type: 'SHA256', value: expr('{{ $fromAI(\\'text\\', \\'The text to hash\\', \\'string\\') }}'), dataPropertyName: 'hash', toolDescription: 'Computes the SHA-256 hash (hex) of a text' } } });
const current_time = tool({ type: 'n8n-nodes-base.dateTimeTool', version: 2, config: { name: 'Current time', parameters: { operation: 'getCurrentDate', includeTime: true, outputFieldName: 'now', options: {} } } });

const when_chat_message_received = trigger({
  type: '@n8n/n8n-nodes-langchain.chatTrigger',
  version: 1.1,
  config: { name: 'When chat message received', parameters: { options: {} }, webhookId: '3f0c9a52-9d55-4c1e-9a59-2f1b1c0d7e11' }
});

const aI_Agent = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: { name: 'AI Agent', parameters: { promptType: 'define', text: expr('Hash this text with SHA-256: {{ $json.chatInput }}'), options: { systemMessage: 'You are a precise assistant. Use "Hash text" for every hash and "Current time" when asked about the date or time.', maxIterations: 4 } }, subnodes: { model: openRouter_Chat_Model, tools: [hash_text, current_time] } }
});

const log_answer = node({
  type: 'n8n-nodes-base.slack',
  version: 2.3,
  config: {
    name: 'Log answer',
    parameters: {
      resource: 'message',
      operation: 'post',
      select: 'channel',
      channelId: { __rl: true, mode: 'name', value: '#hash-log' },
      text: expr('{{ $json.output }}'),
      otherOptions: {}
    },
    credentials: { slackApi: newCredential('Slack bot') }
  }
});

const wf = workflow('', 'n8n AI Agent with crypto tool', { executionOrder: 'v1' });

export default wf
  .add(when_chat_message_received)
  .to(aI_Agent)
  .to(log_answer)`;

const typedAgain = `const start: TriggerInstance = trigger({ type: 'n8n-nodes-base.manualTrigger', version: 1, config: { name: 'Start' } });
const fetchData: NodeInstance = node({ type: 'n8n-nodes-base.httpRequest', version: 4.2, config: { name: 'Fetch', parameters: { url: 'https://example.com/data.json' } } });
export default workflow('typed', 'Typed').add(start).to(fetchData);`;

const ghostNode = `const start = trigger({ type: 'n8n-nodes-base.manualTrigger', version: 1, config: { name: 'Start' } });
const tweet = node({ type: 'n8n-nodes-base.xTwitter', version: 2, config: { name: 'Post tweet', parameters: { text: 'Hello' } } });
export default workflow('tweet', 'Tweet').add(start).to(tweet);`;

export const controlFlowCases: BuilderEvalCase[] = [
	{
		id: 'order-routing-if',
		prompt:
			'For each order posted to a webhook: if the total is over 100 tell #big-orders on Slack, otherwise email the customer a thank-you with Gmail.',
		note: 'a node version that does not exist (IF 3), fixed',
		turns: [
			search('webhook', 'if', 'slack', 'gmail'),
			lookup('n8n-nodes-base.if', {
				nodeId: 'n8n-nodes-base.gmail',
				resource: 'message',
				operation: 'send',
			}),
			reply('An IF splits the orders.', vipOrders(3)),
			reply('Used IF version 2.2.', vipOrders(2.2)),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'ticket-routing-switch',
		prompt:
			'Route support tickets from a webhook by priority: urgent pages #on-call, normal goes to #support, anything else is ignored.',
		note: 'an arrow function in the code (cannot be read), fixed',
		turns: [
			search('webhook', 'switch', 'slack', 'no operation'),
			lookup({ nodeId: 'n8n-nodes-base.switch', mode: 'rules' }, 'n8n-nodes-base.noOp'),
			reply('A helper builds the conditions.', ticketRoutingWithHelper),
			reply('Wrote the conditions out without a helper function.', ticketRoutingFixed),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'sync-users-loop',
		prompt:
			'Fetch all users from jsonplaceholder and POST each one to our CRM, one at a time with a short pause.',
		note: 'a cycle with no way out, fixed with Loop Over Items',
		turns: [
			search('manual trigger', 'http request', 'loop over items', 'wait'),
			lookup('n8n-nodes-base.splitInBatches', 'n8n-nodes-base.wait'),
			reply('The request and the pause repeat for each user.', batchLoop(false)),
			reply('Now looping with Loop Over Items.', batchLoop(true)),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'merge-apis',
		prompt:
			'Call two APIs in parallel (a user and a todo from jsonplaceholder) and combine the results into one item with who and task.',
		turns: [
			search('manual trigger', 'http request', 'merge', 'edit fields'),
			lookup(
				{ nodeId: 'n8n-nodes-base.merge', mode: 'combineByPosition' },
				{ nodeId: 'n8n-nodes-base.set', mode: 'manual' },
			),
			reply('Two branches into a Merge by position.', mergeApis),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'weekly-stars-code',
		prompt:
			"Every Monday at 9 sum the GitHub stars of the n8n-io organization's repositories and post the total and top 3 to Discord.",
		turns: [
			search('schedule trigger', 'http request', 'code', 'discord'),
			lookup(
				{ nodeId: 'n8n-nodes-base.code', mode: 'runOnceForAllItems' },
				'n8n-nodes-base.discord',
			),
			reply('A Code node computes the statistics.', codeStats),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'cache-refresh-two-triggers',
		prompt: 'Purge our CDN cache every night at 3 and whenever someone calls a webhook.',
		note: "a warning of the SDK's own checks (a new plain header credential), followed",
		turns: [
			search('webhook', 'schedule trigger', 'edit fields', 'http request'),
			lookup({ nodeId: 'n8n-nodes-base.set', mode: 'manual' }, 'n8n-nodes-base.httpRequest'),
			reply('Both triggers feed the same steps.', twoTriggers('httpHeaderAuth')),
			reply(
				'Switched to a templated credential, as the check advises for a new credential.',
				twoTriggers('httpTemplatedCustomAuth'),
			),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'edit-agent-add-tool-and-slack',
		prompt:
			'Give the agent a tool that tells the current date and time, and post every answer to #hash-log on Slack.',
		from: 'fixtures/workflows/n8n-ai-agent.json',
		note: 'editing: the current workflow as code in the prompt; ids kept',
		turns: [
			lookup('n8n-nodes-base.dateTimeTool', {
				nodeId: 'n8n-nodes-base.slack',
				resource: 'message',
				operation: 'post',
			}),
			reply('Added "Current time" to the agent and a Slack step after it.', editedAgent),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'keeps-typescript',
		prompt: 'Fetch https://example.com/data.json when I click run.',
		note: 'a model that keeps writing TypeScript: stops after 3 unreadable answers',
		turns: [
			reply('Here it is.', typedAgain),
			reply('Fixed.', typedAgain),
			reply('Fixed again.', typedAgain),
		],
		expect: { valid: false, rounds: 3 },
	},
	{
		id: 'never-fixes',
		prompt: 'Post "Hello" to X (Twitter) when I click run.',
		note: 'a model that repeats a node type that does not exist: stops when the errors stop getting fewer',
		turns: [
			reply('Here it is.', ghostNode),
			say(`I double-checked, the node is right.\n\n\`\`\`javascript\n${ghostNode}\n\`\`\``),
			reply('Same workflow.', ghostNode),
			reply('Same workflow.', ghostNode),
		],
		expect: { valid: false, rounds: 4 },
	},
];
