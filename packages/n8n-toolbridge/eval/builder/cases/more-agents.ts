/** More agent workflows: services as tools (Airtable, Google Calendar), and a monitor without an agent. */
import { lookup, reply, search, type BuilderEvalCase } from '../eval-case';

const model = `const chatModel = languageModel({
  type: '@n8n/n8n-nodes-langchain.lmChatOpenRouter',
  version: 1,
  config: {
    name: 'OpenRouter Model',
    parameters: { model: 'openai/gpt-4o-mini', options: {} },
    credentials: { openRouterApi: newCredential('OpenRouter account') }
  }
});`;

const chat = `const chatTrigger = trigger({
  type: '@n8n/n8n-nodes-langchain.chatTrigger',
  version: 1.5,
  config: { name: 'When chat message received', parameters: { options: {} } }
});`;

const inventoryAgent = `${chat}

${model}

const findProducts = tool({
  type: 'n8n-nodes-base.airtableTool',
  version: 2.2,
  config: {
    name: 'Find products',
    parameters: {
      resource: 'record',
      operation: 'search',
      descriptionType: 'manual',
      toolDescription: 'Searches the product inventory with an Airtable formula and returns matching products with their stock',
      base: { __rl: true, mode: 'id', value: 'appInventory123' },
      table: { __rl: true, mode: 'id', value: 'tblProducts456' },
      filterByFormula: fromAi('formula', 'An Airtable formula, e.g. SEARCH("lamp", LOWER({Name}))'),
      returnAll: false,
      limit: 20,
      options: {}
    },
    credentials: { airtableTokenApi: newCredential('Airtable token') }
  }
});

const agent = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'Inventory Agent',
    parameters: {
      promptType: 'auto',
      options: { systemMessage: 'You answer questions about our product inventory. Use "Find products" with an Airtable formula on the Name and Category fields, then answer with names and stock.' }
    },
    subnodes: { model: chatModel, tools: [findProducts] }
  }
});

export default workflow('inventory-agent', 'Inventory chat agent')
  .add(chatTrigger)
  .to(agent);`;

const calendarAgent = (calendarId: string) => `${chat}

${model}

const createEvent = tool({
  type: 'n8n-nodes-base.googleCalendarTool',
  version: 1.3,
  config: {
    name: 'Create event',
    parameters: {
      resource: 'event',
      operation: 'create',
      descriptionType: 'manual',
      toolDescription: 'Creates an event in my calendar',
      calendar: { __rl: true, mode: 'id', value: '${calendarId}' },
      start: fromAi('start', 'Start as an ISO date-time, e.g. 2025-05-01T10:00:00'),
      end: fromAi('end', 'End as an ISO date-time'),
      useDefaultReminders: true,
      additionalFields: {
        summary: fromAi('title', 'Short title of the event'),
        description: fromAi('details', 'Details of the event', 'string')
      }
    },
    credentials: { googleCalendarOAuth2Api: newCredential('Google Calendar account') }
  }
});

const today = tool({
  type: 'n8n-nodes-base.dateTimeTool',
  version: 2,
  config: { name: 'Today', parameters: { operation: 'getCurrentDate', includeTime: true, outputFieldName: 'now', options: {} } }
});

const agent = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'Calendar Assistant',
    parameters: {
      promptType: 'auto',
      options: { systemMessage: 'You put appointments into my calendar. Use "Today" to resolve dates like "next Friday", then "Create event". Confirm what you created.' }
    },
    subnodes: { model: chatModel, tools: [createEvent, today] }
  }
});

export default workflow('calendar-assistant', 'Calendar assistant')
  .add(chatTrigger)
  .to(agent);`;

const uptime = `const every5 = trigger({
  type: 'n8n-nodes-base.scheduleTrigger',
  version: 1.2,
  config: { name: 'Every 5 minutes', parameters: { rule: { interval: [{ field: 'minutes', minutesInterval: 5 }] } } }
});

const check = node({
  type: 'n8n-nodes-base.httpRequest',
  version: 4.2,
  config: {
    name: 'Check site',
    onError: 'continueRegularOutput',
    parameters: {
      url: 'https://www.example.com/health',
      options: { response: { response: { fullResponse: true, neverError: true } }, timeout: 10000 }
    }
  }
});

const isDown = node({
  type: 'n8n-nodes-base.if',
  version: 2.2,
  config: {
    name: 'Down?',
    parameters: {
      conditions: {
        options: { caseSensitive: true, leftValue: '', typeValidation: 'loose' },
        conditions: [{ leftValue: expr('{{ $json.statusCode }}'), operator: { type: 'number', operation: 'notEquals' }, rightValue: 200 }],
        combinator: 'and'
      },
      options: {}
    }
  }
});

const alert = node({
  type: 'n8n-nodes-base.emailSend',
  version: 2.1,
  config: {
    name: 'Email on-call',
    parameters: {
      fromEmail: 'monitor@example.com',
      toEmail: 'oncall@example.com',
      subject: 'example.com is down',
      emailFormat: 'text',
      text: expr('Health check answered {{ $json.statusCode }} at {{ $now.toISO() }}.'),
      options: {}
    },
    credentials: { smtp: newCredential('SMTP account') }
  }
});

export default workflow('uptime-monitor', 'Uptime monitor')
  .add(every5)
  .to(check)
  .to(isDown.onTrue(alert));`;

export const moreAgentCases: BuilderEvalCase[] = [
	{
		id: 'inventory-agent-airtable',
		prompt: 'A chat agent that answers stock questions from our Airtable product base.',
		turns: [
			search('chat trigger', 'ai agent', 'airtable', 'openrouter chat model'),
			lookup({ nodeId: 'n8n-nodes-base.airtableTool', resource: 'record', operation: 'search' }),
			reply('The agent searches Airtable with a formula it writes.', inventoryAgent),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'calendar-assistant',
		note: 'a resource locator value the node refuses (calendar id "primary"), fixed',
		prompt:
			'A chat assistant that puts appointments into my Google Calendar; it must understand dates like "next Friday".',
		turns: [
			search('chat trigger', 'ai agent', 'google calendar', 'date time', 'openrouter chat model'),
			lookup(
				{ nodeId: 'n8n-nodes-base.googleCalendarTool', resource: 'event', operation: 'create' },
				'n8n-nodes-base.dateTimeTool',
			),
			reply("Two tools: create an event, and today's date.", calendarAgent('primary')),
			reply("The calendar id is my calendar's address.", calendarAgent('me@example.com')),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'uptime-monitor',
		prompt:
			'Check https://www.example.com/health every 5 minutes and email oncall@example.com when it does not answer 200.',
		turns: [
			search('schedule trigger', 'http request', 'if', 'send email'),
			lookup('n8n-nodes-base.httpRequest', 'n8n-nodes-base.if', 'n8n-nodes-base.emailSend'),
			reply('The request never fails, so the IF sees every status code.', uptime),
		],
		expect: { valid: true, rounds: 1 },
	},
];
