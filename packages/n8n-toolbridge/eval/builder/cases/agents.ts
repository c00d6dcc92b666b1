/** Agent workflows: an AI Agent with a chat model, memory, an output parser and n8n-nodes-base tools. */
import { lookup, reply, search, type BuilderEvalCase } from '../eval-case';

const openRouterModel = (
	name = 'OpenRouter Model',
	model = 'openai/gpt-4o-mini',
) => `const chatModel = languageModel({
  type: '@n8n/n8n-nodes-langchain.lmChatOpenRouter',
  version: 1,
  config: {
    name: '${name}',
    parameters: { model: '${model}', options: { temperature: 0.2 } },
    credentials: { openRouterApi: newCredential('OpenRouter account') }
  }
});`;

const chatTrigger = `const chatTrigger = trigger({
  type: '@n8n/n8n-nodes-langchain.chatTrigger',
  version: 1.5,
  config: { name: 'When chat message received', parameters: { options: {} } }
});`;

const hashTool = (type: string) => `const hashText = tool({
  type: 'n8n-nodes-base.cryptoTool',
  version: 2,
  config: {
    name: 'Hash text',
    parameters: {
      action: 'hash',
      type: '${type}',
      value: fromAi('text', 'The exact text to hash'),
      dataPropertyName: 'hash',
      toolDescription: 'Hashes a text and returns its hex digest'
    }
  }
});`;

const hashAgent = (type: string) => `${chatTrigger}

${openRouterModel()}

${hashTool(type)}

const agent = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'Hashing Agent',
    parameters: {
      promptType: 'auto',
      options: {
        systemMessage: 'You hash texts for the user. Use the "Hash text" tool for every text the user gives you and answer with the hex digest only.'
      }
    },
    subnodes: { model: chatModel, tools: [hashText] }
  }
});

export default workflow('hash-chat-agent', 'Hash texts in chat')
  .add(chatTrigger)
  .to(agent);`;

const weatherAgent = (latitudeType: string) => `${chatTrigger}

${openRouterModel()}

const forecast = tool({
  type: 'n8n-nodes-base.httpRequestTool',
  version: 4.2,
  config: {
    name: 'Get forecast',
    parameters: {
      toolDescription: 'Gets the hourly weather forecast (temperature, precipitation) for a latitude and longitude from Open-Meteo',
      method: 'GET',
      url: 'https://api.open-meteo.com/v1/forecast',
      sendQuery: true,
      specifyQuery: 'keypair',
      queryParameters: {
        parameters: [
          { name: 'latitude', value: expr("{{ $fromAI('latitude', 'Latitude of the place', '${latitudeType}') }}") },
          { name: 'longitude', value: expr("{{ $fromAI('longitude', 'Longitude of the place', 'number') }}") },
          { name: 'hourly', value: 'temperature_2m,precipitation' },
          { name: 'forecast_days', value: '2' }
        ]
      }
    }
  }
});

const agent = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'Weather Agent',
    parameters: {
      promptType: 'auto',
      options: {
        systemMessage: 'You answer questions about the weather. Work out the coordinates of the place the user names, call "Get forecast" with them and summarize the next hours in two sentences.'
      }
    },
    subnodes: { model: chatModel, tools: [forecast] }
  }
});

export default workflow('weather-agent', 'Weather chat agent')
  .add(chatTrigger)
  .to(agent);`;

const supportAgent = (toolWiring: 'main' | 'subnodes') => `${chatTrigger}

${openRouterModel('Chat Model', 'anthropic/claude-3.5-haiku')}

const chatMemory = memory({
  type: '@n8n/n8n-nodes-langchain.memoryBufferWindow',
  version: 1.3,
  config: { name: 'Conversation Memory', parameters: { contextWindowLength: 10 } }
});

const lookupOrder = tool({
  type: 'n8n-nodes-base.httpRequestTool',
  version: 4.2,
  config: {
    name: 'Look up order',
    parameters: {
      toolDescription: 'Looks up an order by its order number and returns its status and items',
      method: 'GET',
      url: expr("https://shop.example.com/api/orders/{{ $fromAI('orderNumber', 'The order number the customer gave', 'string') }}"),
      authentication: 'genericCredentialType',
      genericAuthType: 'httpHeaderAuth'
    },
    credentials: { httpHeaderAuth: newCredential('Shop API key') }
  }
});

const currentDate = tool({
  type: 'n8n-nodes-base.dateTimeTool',
  version: 2,
  config: {
    name: 'Current date',
    parameters: {
      operation: 'getCurrentDate',
      includeTime: true,
      outputFieldName: 'now',
      options: { timezone: 'Europe/Berlin' }
    }
  }
});

const agent = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'Support Agent',
    parameters: {
      promptType: 'auto',
      options: {
        systemMessage: 'You are the support assistant of an online shop. Use "Look up order" to check an order the customer names and "Current date" to judge delivery times. Be brief and friendly.'
      }
    },
    subnodes: { model: chatModel, memory: chatMemory, tools: [${toolWiring === 'subnodes' ? 'lookupOrder, currentDate' : 'currentDate'}] }
  }
});

export default workflow('support-agent', 'Shop support agent')
  .add(chatTrigger)
  .to(agent)${toolWiring === 'main' ? '\n  .to(lookupOrder)' : ''};`;

const emailAgent = (withModel: boolean) => `const mailTrigger = trigger({
  type: 'n8n-nodes-base.gmailTrigger',
  version: 1.3,
  config: {
    name: 'New email',
    parameters: {
      pollTimes: { item: [{ mode: 'everyMinute' }] },
      simple: true,
      filters: { labelIds: ['INBOX'], readStatus: 'unread' }
    },
    credentials: { gmailOAuth2: newCredential('Gmail account') }
  }
});
${withModel ? `\n${openRouterModel()}\n` : ''}
const summarize = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'Summarize email',
    parameters: {
      promptType: 'define',
      text: expr('From: {{ $json.From }}\\nSubject: {{ $json.Subject }}\\n\\n{{ $json.snippet }}'),
      options: {
        systemMessage: 'Summarize the email in at most three bullet points and say whether it needs an answer today.'
      }
    }${withModel ? ',\n    subnodes: { model: chatModel }' : ''}
  }
});

const postSummary = node({
  type: 'n8n-nodes-base.slack',
  version: 2.3,
  config: {
    name: 'Post summary',
    parameters: {
      resource: 'message',
      operation: 'post',
      select: 'channel',
      channelId: { __rl: true, mode: 'name', value: '#inbox-digest' },
      text: expr('*{{ $("New email").item.json.Subject }}*\\n{{ $json.output }}'),
      otherOptions: {}
    },
    credentials: { slackApi: newCredential('Slack bot') }
  }
});

export default workflow('email-digest', 'Summarize new emails to Slack')
  .add(mailTrigger)
  .to(summarize)
  .to(postSummary);`;

const classifier = `const webhook = trigger({
  type: 'n8n-nodes-base.webhook',
  version: 2.1,
  config: {
    name: 'Feedback received',
    parameters: { httpMethod: 'POST', path: 'feedback', responseMode: 'onReceived', options: {} }
  }
});

${openRouterModel()}

const parser = outputParser({
  type: '@n8n/n8n-nodes-langchain.outputParserStructured',
  version: 1.3,
  config: {
    name: 'Sentiment schema',
    parameters: {
      schemaType: 'fromJson',
      jsonSchemaExample: '{ "sentiment": "positive", "score": 0.9, "topics": ["delivery"] }'
    }
  }
});

const analyze = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'Analyze feedback',
    parameters: {
      promptType: 'define',
      text: expr('{{ $json.body.feedback }}'),
      hasOutputParser: true,
      options: {
        systemMessage: 'Classify the customer feedback: sentiment (positive, neutral or negative), a score from 0 to 1 and up to three topics.'
      }
    },
    subnodes: { model: chatModel, outputParser: parser }
  }
});

const store = node({
  type: 'n8n-nodes-base.googleSheets',
  version: 4.7,
  config: {
    name: 'Append to sheet',
    parameters: {
      resource: 'sheet',
      operation: 'append',
      documentId: { __rl: true, mode: 'url', value: 'https://docs.google.com/spreadsheets/d/1AbCdEfGhIjKlMnOp/edit' },
      sheetName: { __rl: true, mode: 'name', value: 'Feedback' },
      columns: {
        mappingMode: 'defineBelow',
        value: {
          feedback: expr('{{ $("Feedback received").item.json.body.feedback }}'),
          sentiment: expr('{{ $json.output.sentiment }}'),
          score: expr('{{ $json.output.score }}'),
          topics: expr('{{ $json.output.topics.join(", ") }}')
        },
        matchingColumns: [],
        schema: []
      },
      options: {}
    },
    credentials: { googleSheetsOAuth2Api: newCredential('Google Sheets account') }
  }
});

export default workflow('feedback-sentiment', 'Classify feedback into a sheet')
  .add(webhook)
  .to(analyze)
  .to(store);`;

const telegramAgent = `const telegramTrigger = trigger({
  type: 'n8n-nodes-base.telegramTrigger',
  version: 1.2,
  config: {
    name: 'Telegram message',
    parameters: { updates: ['message'], additionalFields: {} },
    credentials: { telegramApi: newCredential('Telegram bot') }
  }
});

${openRouterModel()}

const chatMemory = memory({
  type: '@n8n/n8n-nodes-langchain.memoryBufferWindow',
  version: 1.3,
  config: {
    name: 'Memory per chat',
    parameters: {
      sessionIdType: 'customKey',
      sessionKey: nodeJson(telegramTrigger, 'message.chat.id'),
      contextWindowLength: 8
    }
  }
});

const agent = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'Telegram Assistant',
    parameters: {
      promptType: 'define',
      text: expr('{{ $json.message.text }}'),
      options: { systemMessage: 'You are a concise personal assistant on Telegram. Answer in the language of the message.' }
    },
    subnodes: { model: chatModel, memory: chatMemory }
  }
});

const sendReply = node({
  type: 'n8n-nodes-base.telegram',
  version: 1.2,
  config: {
    name: 'Send reply',
    parameters: {
      resource: 'message',
      operation: 'sendMessage',
      chatId: expr('{{ $("Telegram message").item.json.message.chat.id }}'),
      text: expr('{{ $json.output }}'),
      additionalFields: { appendAttribution: false }
    },
    credentials: { telegramApi: newCredential('Telegram bot') }
  }
});

export default workflow('telegram-assistant', 'Telegram AI assistant')
  .add(telegramTrigger)
  .to(agent)
  .to(sendReply);`;

const mailerAgent = `${chatTrigger}

${openRouterModel()}

const sendMail = tool({
  type: 'n8n-nodes-base.emailSendTool',
  version: 2.1,
  config: {
    name: 'Send email',
    parameters: {
      descriptionType: 'manual',
      toolDescription: 'Sends a plain-text email',
      fromEmail: 'assistant@example.com',
      toEmail: fromAi('to', 'Recipient email address'),
      subject: fromAi('subject', 'Subject line'),
      emailFormat: 'text',
      text: fromAi('body', 'The email text'),
      options: {}
    },
    credentials: { smtp: newCredential('SMTP account') }
  }
});

const agent = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'Mail Agent',
    parameters: {
      promptType: 'auto',
      options: { systemMessage: 'You write and send short emails for the user with the "Send email" tool. Confirm recipient and subject before sending.' }
    },
    subnodes: { model: chatModel, tools: [sendMail] }
  }
});

export default workflow('mail-agent', 'Email sending agent')
  .add(chatTrigger)
  .to(agent);`;

const databaseAgent = (tableTool: string) => `${chatTrigger}

${openRouterModel('Chat Model', 'openai/gpt-4.1')}

const runQuery = tool({
  type: '${tableTool}',
  version: 2.6,
  config: {
    name: 'Run SQL query',
    parameters: {
      descriptionType: 'manual',
      toolDescription: 'Runs a read-only SQL query against the analytics database and returns the rows',
      operation: 'executeQuery',
      query: fromAi('query', 'A single read-only PostgreSQL SELECT statement'),
      options: {}
    },
    credentials: { postgres: newCredential('Analytics database') }
  }
});

const agent = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'SQL Analyst',
    parameters: {
      promptType: 'auto',
      options: {
        systemMessage: 'You answer questions about sales data. The table orders(id, customer, total, created_at) is in the database. Write one SELECT for "Run SQL query", never a statement that changes data, and explain the result briefly.'
      }
    },
    subnodes: { model: chatModel, tools: [runQuery] }
  }
});

export default workflow('sql-analyst', 'SQL analyst agent')
  .add(chatTrigger)
  .to(agent);`;

const calculatorAgent = `${chatTrigger}

${openRouterModel()}

const calculator = tool({
  type: '@n8n/n8n-nodes-langchain.toolCalculator',
  version: 1,
  config: { name: 'Calculator', parameters: {} }
});

${hashTool('SHA256')}

const agent = node({
  type: '@n8n/n8n-nodes-langchain.agent',
  version: 3.1,
  config: {
    name: 'Math and hash agent',
    parameters: {
      promptType: 'auto',
      options: { systemMessage: 'Use "Calculator" for arithmetic and "Hash text" to hash texts. Show the result only.' }
    },
    subnodes: { model: chatModel, tools: [calculator, hashText] }
  }
});

export default workflow('calc-hash-agent', 'Calculator and hash agent')
  .add(chatTrigger)
  .to(agent);`;

export const agentCases: BuilderEvalCase[] = [
	{
		id: 'hash-chat-agent',
		prompt: 'A chat agent that hashes any text I send it with SHA-256 and answers with the digest.',
		note: 'option outside its list (SHA-256 spelled as the model guessed), fixed',
		turns: [
			search('chat trigger', 'ai agent', 'openrouter chat model', 'hash', 'crypto'),
			lookup(
				'@n8n/n8n-nodes-langchain.chatTrigger',
				'@n8n/n8n-nodes-langchain.agent',
				'@n8n/n8n-nodes-langchain.lmChatOpenRouter',
			),
			reply("I'll use the Crypto node's tool variant for hashing.", hashAgent('SHA-256')),
			reply('Fixed the hash type to the value the node accepts.', hashAgent('SHA256')),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'weather-agent',
		prompt:
			'Chat agent that tells me the weather forecast for any city, using the free Open-Meteo API.',
		note: '$fromAI type that does not compile (float), fixed after the load',
		turns: [
			search('chat trigger', 'ai agent', 'openrouter chat model', 'http request'),
			lookup(
				'n8n-nodes-base.httpRequestTool',
				'@n8n/n8n-nodes-langchain.agent',
				'@n8n/n8n-nodes-langchain.chatTrigger',
			),
			reply('The agent calls Open-Meteo through an HTTP Request tool.', weatherAgent('float')),
			reply('Changed the latitude type to number.', weatherAgent('number')),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'support-agent-memory',
		prompt:
			'A customer support chat agent for my shop that remembers the conversation, can look up orders in our REST API (GET /api/orders/{number}, API key header) and knows the current date.',
		note: 'a tool wired on the main path instead of subnodes.tools, fixed',
		turns: [
			search(
				'chat trigger',
				'ai agent',
				'chat model',
				'simple memory',
				'http request',
				'date time',
			),
			lookup(
				'@n8n/n8n-nodes-langchain.memoryBufferWindow',
				'n8n-nodes-base.httpRequestTool',
				'n8n-nodes-base.dateTimeTool',
				'@n8n/n8n-nodes-langchain.agent',
			),
			reply('Here is the support agent.', supportAgent('main')),
			reply('Moved "Look up order" into the agent\'s tools.', supportAgent('subnodes')),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'email-digest',
		prompt:
			'When a new email arrives in Gmail, summarize it with AI and post the summary to the #inbox-digest Slack channel.',
		note: 'an agent without its chat model, fixed',
		turns: [
			search('gmail trigger', 'ai agent', 'openrouter chat model', 'slack'),
			lookup(
				'n8n-nodes-base.gmailTrigger',
				{ nodeId: 'n8n-nodes-base.slack', resource: 'message', operation: 'post' },
				'@n8n/n8n-nodes-langchain.agent',
			),
			reply('The Gmail trigger feeds an agent that writes the summary.', emailAgent(false)),
			reply('Added the chat model to the agent.', emailAgent(true)),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'feedback-sentiment',
		prompt:
			'Receive customer feedback on a webhook, classify its sentiment and topics with AI as structured JSON, and append it to a Google Sheet.',
		turns: [
			search(
				'webhook',
				'ai agent',
				'structured output parser',
				'openrouter chat model',
				'google sheets',
			),
			lookup(
				'@n8n/n8n-nodes-langchain.outputParserStructured',
				{ nodeId: 'n8n-nodes-base.googleSheets', resource: 'sheet', operation: 'append' },
				'n8n-nodes-base.webhook',
			),
			reply('Webhook → agent with a structured output parser → Google Sheets.', classifier),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'telegram-assistant',
		prompt:
			'A Telegram bot that answers messages with an AI assistant and remembers each chat separately.',
		turns: [
			search('telegram trigger', 'telegram', 'ai agent', 'simple memory', 'openrouter chat model'),
			lookup(
				'n8n-nodes-base.telegramTrigger',
				{ nodeId: 'n8n-nodes-base.telegram', resource: 'message', operation: 'sendMessage' },
				'@n8n/n8n-nodes-langchain.memoryBufferWindow',
			),
			reply('Memory is keyed by the Telegram chat id.', telegramAgent),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'mail-agent',
		prompt: 'A chat agent that can send emails for me over SMTP.',
		turns: [
			search('chat trigger', 'ai agent', 'send email', 'openrouter chat model'),
			lookup('n8n-nodes-base.emailSendTool', '@n8n/n8n-nodes-langchain.agent'),
			reply('The agent fills recipient, subject and body with fromAi.', mailerAgent),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'sql-analyst',
		prompt:
			'An AI analyst I can chat with that answers questions by querying our Postgres analytics database (read-only).',
		note: 'a node type that does not exist (postgresqlTool), fixed',
		turns: [
			search('chat trigger', 'ai agent', 'postgres', 'openrouter chat model'),
			lookup(
				{ nodeId: 'n8n-nodes-base.postgresTool', operation: 'executeQuery' },
				'@n8n/n8n-nodes-langchain.agent',
			),
			reply(
				'The agent runs SELECTs through a Postgres tool.',
				databaseAgent('n8n-nodes-base.postgresqlTool'),
			),
			reply('Fixed the tool type.', databaseAgent('n8n-nodes-base.postgresTool')),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'calculator-agent',
		prompt: 'A chat agent with a calculator and a text hashing tool.',
		note: "LangChain's Calculator sub-node: a warning when the add-on is not installed (described only), kept",
		turns: [
			search('chat trigger', 'ai agent', 'calculator', 'hash', 'openrouter chat model'),
			lookup('@n8n/n8n-nodes-langchain.toolCalculator', 'n8n-nodes-base.cryptoTool'),
			reply("Calculator and Hash text as the agent's tools.", calculatorAgent),
			reply('The Calculator is the right tool for arithmetic; I keep it.', calculatorAgent),
		],
		expect: { valid: true, rounds: 2 },
	},
];
