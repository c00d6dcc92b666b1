/** Integration workflows: a trigger, services and data steps, no agent. */
import { lookup, reply, search, type BuilderEvalCase } from '../eval-case';

const releaseToSlack = `const everyMorning = trigger({
  type: 'n8n-nodes-base.scheduleTrigger',
  version: 1.2,
  config: {
    name: 'Weekdays at 8',
    parameters: { rule: { interval: [{ field: 'cronExpression', expression: '0 8 * * 1-5' }] } }
  }
});

const latestRelease = node({
  type: 'n8n-nodes-base.httpRequest',
  version: 4.2,
  config: {
    name: 'Get latest release',
    parameters: {
      method: 'GET',
      url: 'https://api.github.com/repos/n8n-io/n8n/releases/latest',
      sendHeaders: true,
      specifyHeaders: 'keypair',
      headerParameters: { parameters: [{ name: 'Accept', value: 'application/vnd.github+json' }] },
      options: {}
    }
  }
});

const post = node({
  type: 'n8n-nodes-base.slack',
  version: 2.3,
  config: {
    name: 'Post to Slack',
    parameters: {
      resource: 'message',
      operation: 'post',
      select: 'channel',
      channelId: { __rl: true, mode: 'name', value: '#releases' },
      text: expr('Latest n8n release: *{{ $json.name }}* ({{ $json.published_at }})\\n{{ $json.html_url }}'),
      otherOptions: {}
    },
    credentials: { slackApi: newCredential('Slack bot') }
  }
});

export default workflow('release-digest', 'Post the latest n8n release to Slack')
  .add(everyMorning)
  .to(latestRelease)
  .to(post);`;

const signupWebhook = `const signup = trigger({
  type: 'n8n-nodes-base.webhook',
  version: 2.1,
  config: {
    name: 'Signup webhook',
    parameters: { httpMethod: 'POST', path: 'signup', responseMode: 'responseNode', options: {} }
  }
});

const normalize = node({
  type: 'n8n-nodes-base.set',
  version: 3.4,
  config: {
    name: 'Normalize signup',
    parameters: {
      mode: 'manual',
      includeOtherFields: false,
      assignments: {
        assignments: [
          { id: 'email', name: 'email', value: expr('{{ $json.body.email.trim().toLowerCase() }}'), type: 'string' },
          { id: 'name', name: 'name', value: expr('{{ $json.body.name }}'), type: 'string' },
          { id: 'signedUpAt', name: 'signedUpAt', value: expr('{{ $now.toISO() }}'), type: 'string' }
        ]
      },
      options: {}
    }
  }
});

const respond = node({
  type: 'n8n-nodes-base.respondToWebhook',
  version: 1.1,
  config: {
    name: 'Respond with signup',
    parameters: { respondWith: 'json', responseBody: expr('{{ { "ok": true, "email": $json.email } }}'), options: { responseCode: 201 } }
  }
});

export default workflow('signup-webhook', 'Normalize signups')
  .add(signup)
  .to(normalize)
  .to(respond);`;

const rssToTelegram = (typed: boolean) => `const hourly = trigger({
  type: 'n8n-nodes-base.scheduleTrigger',
  version: 1.2,
  config: { name: 'Every hour', parameters: { rule: { interval: [{ field: 'hours', hoursInterval: 1 }] } } }
});

const ${typed ? 'feed: NodeInstance' : 'feed'} = node({
  type: 'n8n-nodes-base.rssFeedRead',
  version: 1.2,
  config: { name: 'Read feed', parameters: { url: 'https://hnrss.org/frontpage', options: {} } }
});

const aiOnly = node({
  type: 'n8n-nodes-base.filter',
  version: 2.2,
  config: {
    name: 'Only AI stories',
    parameters: {
      conditions: {
        options: { caseSensitive: false, leftValue: '', typeValidation: 'strict' },
        conditions: [{ leftValue: expr('{{ $json.title }}'), operator: { type: 'string', operation: 'contains' }, rightValue: 'AI' }],
        combinator: 'and'
      },
      options: { ignoreCase: true }
    }
  }
});

const send = node({
  type: 'n8n-nodes-base.telegram',
  version: 1.2,
  config: {
    name: 'Send to channel',
    parameters: {
      resource: 'message',
      operation: 'sendMessage',
      chatId: '@ai-news-digest',
      text: expr('{{ $json.title }}\\n{{ $json.link }}'),
      additionalFields: { disable_web_page_preview: false }
    },
    credentials: { telegramApi: newCredential('Telegram bot') }
  }
});

export default workflow('rss-telegram', 'AI stories to Telegram')
  .add(hourly)
  .to(feed)
  .to(aiOnly)
  .to(send);`;

const formToSheet = `const contactForm = trigger({
  type: 'n8n-nodes-base.formTrigger',
  version: 2.2,
  config: {
    name: 'Contact form',
    parameters: {
      formTitle: 'Contact us',
      formDescription: 'We answer within one working day.',
      formFields: {
        values: [
          { fieldLabel: 'Name', requiredField: true },
          { fieldLabel: 'Email', fieldType: 'email', requiredField: true },
          { fieldLabel: 'Message', fieldType: 'textarea', requiredField: true }
        ]
      },
      options: {}
    }
  }
});

const append = node({
  type: 'n8n-nodes-base.googleSheets',
  version: 4.7,
  config: {
    name: 'Save request',
    parameters: {
      resource: 'sheet',
      operation: 'append',
      documentId: { __rl: true, mode: 'id', value: '1AbCdEfGhIjKlMnOpQrStUvWxYz' },
      sheetName: { __rl: true, mode: 'name', value: 'Requests' },
      columns: {
        mappingMode: 'defineBelow',
        value: {
          name: expr('{{ $json.Name }}'),
          email: expr('{{ $json.Email }}'),
          message: expr('{{ $json.Message }}'),
          receivedAt: expr('{{ $json.submittedAt }}')
        },
        matchingColumns: [],
        schema: []
      },
      options: {}
    },
    credentials: { googleSheetsOAuth2Api: newCredential('Google Sheets account') }
  }
});

export default workflow('contact-form', 'Contact form to Google Sheets')
  .add(contactForm)
  .to(append);`;

const errorAlert = `const failed = trigger({
  type: 'n8n-nodes-base.errorTrigger',
  version: 1,
  config: { name: 'On workflow error', parameters: {} }
});

const alert = node({
  type: 'n8n-nodes-base.slack',
  version: 2.3,
  config: {
    name: 'Alert on Slack',
    parameters: {
      resource: 'message',
      operation: 'post',
      select: 'channel',
      channelId: { __rl: true, mode: 'name', value: '#alerts' },
      text: expr(':rotating_light: Workflow *{{ $json.workflow.name }}* failed at node "{{ $json.execution.lastNodeExecuted }}": {{ $json.execution.error.message }}\\n{{ $json.execution.url }}'),
      otherOptions: {}
    },
    credentials: { slackApi: newCredential('Slack bot') }
  }
});

export default workflow('error-alert', 'Alert on workflow errors')
  .add(failed)
  .to(alert);`;

const reminder = `const booking = trigger({
  type: 'n8n-nodes-base.webhook',
  version: 2.1,
  config: { name: 'New booking', parameters: { httpMethod: 'POST', path: 'booking', options: {} } }
});

const waitADay = node({
  type: 'n8n-nodes-base.wait',
  version: 1.1,
  config: { name: 'Wait one day', parameters: { resume: 'timeInterval', amount: 1, unit: 'days' } }
});

const remind = node({
  type: 'n8n-nodes-base.emailSend',
  version: 2.1,
  config: {
    name: 'Send reminder',
    parameters: {
      fromEmail: 'bookings@example.com',
      toEmail: expr('{{ $("New booking").item.json.body.email }}'),
      subject: 'Your appointment tomorrow',
      emailFormat: 'text',
      text: expr('Hello {{ $("New booking").item.json.body.name }}, this is a reminder of your appointment on {{ $("New booking").item.json.body.date }}.'),
      options: {}
    },
    credentials: { smtp: newCredential('SMTP account') }
  }
});

export default workflow('booking-reminder', 'Booking reminder after one day')
  .add(booking)
  .to(waitADay)
  .to(remind);`;

const dedupeSortLimit = `const daily = trigger({
  type: 'n8n-nodes-base.scheduleTrigger',
  version: 1.2,
  config: { name: 'Daily', parameters: { rule: { interval: [{ field: 'days', triggerAtHour: 6 }] } } }
});

const fetchProducts = node({
  type: 'n8n-nodes-base.httpRequest',
  version: 4.2,
  config: { name: 'Fetch products', parameters: { url: 'https://dummyjson.com/products?limit=100', options: {} } }
});

const toItems = node({
  type: 'n8n-nodes-base.splitOut',
  version: 1,
  config: { name: 'One item per product', parameters: { fieldToSplitOut: 'products', options: {} } }
});

const unique = node({
  type: 'n8n-nodes-base.removeDuplicates',
  version: 2,
  config: { name: 'Unique titles', parameters: { compare: 'selectedFields', fieldsToCompare: 'title', options: {} } }
});

const byRating = node({
  type: 'n8n-nodes-base.sort',
  version: 1,
  config: { name: 'Best rated first', parameters: { sortFieldsUi: { sortField: [{ fieldName: 'rating', order: 'descending' }] }, options: {} } }
});

const topTen = node({
  type: 'n8n-nodes-base.limit',
  version: 1,
  config: { name: 'Top 10', parameters: { maxItems: 10 } }
});

const save = node({
  type: 'n8n-nodes-base.googleSheets',
  version: 4.7,
  config: {
    name: 'Save top products',
    parameters: {
      resource: 'sheet',
      operation: 'appendOrUpdate',
      documentId: { __rl: true, mode: 'id', value: '1TopProductsSheetId' },
      sheetName: { __rl: true, mode: 'name', value: 'Top' },
      columns: { mappingMode: 'autoMapInputData', value: {}, matchingColumns: ['id'], schema: [] },
      options: {}
    },
    credentials: { googleSheetsOAuth2Api: newCredential('Google Sheets account') }
  }
});

export default workflow('top-products', 'Top rated products to a sheet')
  .add(daily)
  .to(fetchProducts)
  .to(toItems)
  .to(unique)
  .to(byRating)
  .to(topTen)
  .to(save);`;

const notionFromForm = `const ideaForm = trigger({
  type: 'n8n-nodes-base.formTrigger',
  version: 2.2,
  config: {
    name: 'Idea form',
    parameters: {
      formTitle: 'Submit an idea',
      formFields: {
        values: [
          { fieldLabel: 'Title', requiredField: true },
          { fieldLabel: 'Details', fieldType: 'textarea' }
        ]
      },
      options: {}
    }
  }
});

const createPage = node({
  type: 'n8n-nodes-base.notion',
  version: 2.2,
  config: {
    name: 'Create idea page',
    parameters: {
      resource: 'databasePage',
      operation: 'create',
      databaseId: { __rl: true, mode: 'id', value: 'a1b2c3d4e5f64789a0b1c2d3e4f5a6b7' },
      title: expr('{{ $json.Title }}'),
      propertiesUi: { propertyValues: [] },
      blockUi: { blockValues: [{ type: 'paragraph', textContent: expr('{{ $json.Details }}') }] },
      options: {}
    },
    credentials: { notionApi: newCredential('Notion integration') }
  }
});

export default workflow('ideas-to-notion', 'Ideas form to Notion')
  .add(ideaForm)
  .to(createPage);`;

const githubIssues = `const issues = trigger({
  type: 'n8n-nodes-base.githubTrigger',
  version: 1,
  config: {
    name: 'New GitHub issue',
    parameters: {
      authentication: 'accessToken',
      owner: { __rl: true, mode: 'name', value: 'acme' },
      repository: { __rl: true, mode: 'name', value: 'website' },
      events: ['issues'],
      options: {}
    },
    credentials: { githubApi: newCredential('GitHub token') }
  }
});

const opened = node({
  type: 'n8n-nodes-base.if',
  version: 2.2,
  config: {
    name: 'Opened?',
    parameters: {
      conditions: {
        options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
        conditions: [{ leftValue: expr('{{ $json.body.action }}'), operator: { type: 'string', operation: 'equals' }, rightValue: 'opened' }],
        combinator: 'and'
      },
      options: {}
    }
  }
});

const notify = node({
  type: 'n8n-nodes-base.slack',
  version: 2.3,
  config: {
    name: 'Notify team',
    parameters: {
      resource: 'message',
      operation: 'post',
      select: 'channel',
      channelId: { __rl: true, mode: 'name', value: '#website' },
      text: expr('New issue #{{ $json.body.issue.number }}: {{ $json.body.issue.title }}\\n{{ $json.body.issue.html_url }}'),
      otherOptions: {}
    },
    credentials: { slackApi: newCredential('Slack bot') }
  }
});

export default workflow('github-issues', 'New GitHub issues to Slack')
  .add(issues)
  .to(opened.onTrue(notify));`;

const hubspotContact = (withEmail: boolean) => `const lead = trigger({
  type: 'n8n-nodes-base.webhook',
  version: 2.1,
  config: { name: 'Lead webhook', parameters: { httpMethod: 'POST', path: 'lead', options: {} } }
});

const upsert = node({
  type: 'n8n-nodes-base.hubspot',
  version: 2.1,
  config: {
    name: 'Create or update contact',
    parameters: {
      authentication: 'appToken',
      resource: 'contact',
      operation: 'upsert',${withEmail ? "\n      email: expr('{{ $json.body.email }}')," : ''}
      additionalFields: {
        firstName: expr('{{ $json.body.firstName }}'),
        lastName: expr('{{ $json.body.lastName }}'),
        companyName: expr('{{ $json.body.company }}')
      },
      options: {}
    },
    credentials: { hubspotAppToken: newCredential('HubSpot app token') }
  }
});

export default workflow('lead-to-hubspot', 'Leads to HubSpot')
  .add(lead)
  .to(upsert);`;

const soapRequest = `const nightly = trigger({
  type: 'n8n-nodes-base.scheduleTrigger',
  version: 1.2,
  config: { name: 'Nightly', parameters: { rule: { interval: [{ field: 'days', triggerAtHour: 2 }] } } }
});

const soap = node({
  type: 'n8n-nodes-base.httpRequest',
  version: 4.2,
  config: {
    name: 'Get exchange rates (SOAP)',
    parameters: {
      method: 'POST',
      url: 'https://rates.example.com/soap',
      sendHeaders: true,
      specifyHeaders: 'keypair',
      headerParameters: { parameters: [{ name: 'SOAPAction', value: 'GetRates' }] },
      sendBody: true,
      contentType: 'raw',
      rawContentType: 'text/xml',
      body: '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body><GetRates><Base>EUR</Base></GetRates></soapenv:Body></soapenv:Envelope>',
      options: { response: { response: { responseFormat: 'text' } } }
    }
  }
});

const toJson = node({
  type: 'n8n-nodes-base.xml',
  version: 1,
  config: { name: 'XML to JSON', parameters: { mode: 'xmlToJson', dataPropertyName: 'data', options: {} } }
});

export default workflow('soap-rates', 'Nightly SOAP exchange rates')
  .add(nightly)
  .to(soap)
  .to(toJson);`;

export const integrationCases: BuilderEvalCase[] = [
	{
		id: 'release-to-slack',
		prompt:
			'Every weekday at 8:00, get the latest n8n release from the GitHub API and post its name and link to #releases on Slack.',
		turns: [
			search('schedule trigger', 'http request', 'slack'),
			lookup('n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.httpRequest', {
				nodeId: 'n8n-nodes-base.slack',
				resource: 'message',
				operation: 'post',
			}),
			reply('Schedule → HTTP Request → Slack.', releaseToSlack),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'signup-webhook',
		prompt:
			'A webhook for signups that lower-cases and trims the email, adds a timestamp and answers with JSON {ok, email}.',
		turns: [
			search('webhook', 'edit fields set', 'respond to webhook'),
			lookup(
				'n8n-nodes-base.webhook',
				{ nodeId: 'n8n-nodes-base.set', mode: 'manual' },
				'n8n-nodes-base.respondToWebhook',
			),
			reply('Webhook (responding from a Respond node) → Set → Respond to Webhook.', signupWebhook),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'rss-to-telegram',
		prompt:
			'Every hour read the Hacker News RSS feed and send stories about AI to my Telegram channel.',
		note: 'TypeScript type annotation (cannot be read), fixed',
		turns: [
			search('schedule trigger', 'rss', 'filter', 'telegram'),
			lookup('n8n-nodes-base.rssFeedRead', 'n8n-nodes-base.filter', {
				nodeId: 'n8n-nodes-base.telegram',
				resource: 'message',
				operation: 'sendMessage',
			}),
			reply('Here is the workflow.', rssToTelegram(true)),
			reply('Removed the type annotation.', rssToTelegram(false)),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'contact-form-to-sheet',
		prompt: 'A contact form (name, email, message) whose answers are appended to a Google Sheet.',
		turns: [
			search('form trigger', 'google sheets'),
			lookup('n8n-nodes-base.formTrigger', {
				nodeId: 'n8n-nodes-base.googleSheets',
				resource: 'sheet',
				operation: 'append',
			}),
			reply('n8n Form Trigger → Google Sheets append.', formToSheet),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'error-alert',
		prompt:
			'Post to #alerts on Slack whenever one of my workflows fails, with the workflow name, failing node and error.',
		turns: [
			search('error trigger', 'slack'),
			lookup('n8n-nodes-base.errorTrigger', {
				nodeId: 'n8n-nodes-base.slack',
				resource: 'message',
				operation: 'post',
			}),
			reply('Set this workflow as the error workflow of the others.', errorAlert),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'booking-reminder',
		prompt:
			'When a booking comes in on a webhook, wait one day and then email the customer a reminder.',
		turns: [
			search('webhook', 'wait', 'send email'),
			lookup('n8n-nodes-base.wait', 'n8n-nodes-base.emailSend'),
			reply('Webhook → Wait 1 day → Send Email.', reminder),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'top-products',
		prompt:
			'Daily: fetch products from dummyjson.com, drop duplicate titles, keep the 10 best rated and upsert them into a Google Sheet by id.',
		turns: [
			search(
				'schedule trigger',
				'http request',
				'split out',
				'remove duplicates',
				'sort',
				'limit',
				'google sheets',
			),
			lookup(
				'n8n-nodes-base.splitOut',
				'n8n-nodes-base.removeDuplicates',
				'n8n-nodes-base.sort',
				'n8n-nodes-base.limit',
				{ nodeId: 'n8n-nodes-base.googleSheets', resource: 'sheet', operation: 'appendOrUpdate' },
			),
			reply('A straight pipeline of data nodes.', dedupeSortLimit),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'ideas-to-notion',
		prompt:
			'A form where the team submits ideas (title, details) that become pages in our Notion ideas database.',
		turns: [
			search('form trigger', 'notion'),
			lookup({ nodeId: 'n8n-nodes-base.notion', resource: 'databasePage', operation: 'create' }),
			reply('Form → Notion database page.', notionFromForm),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'github-issues',
		prompt:
			'Tell #website on Slack about every newly opened issue in our acme/website GitHub repository.',
		turns: [
			search('github trigger', 'if', 'slack'),
			lookup('n8n-nodes-base.githubTrigger', 'n8n-nodes-base.if'),
			reply('The trigger fires on all issue events; an IF keeps "opened".', githubIssues),
		],
		expect: { valid: true, rounds: 1 },
	},
	{
		id: 'lead-to-hubspot',
		prompt:
			'Create or update a HubSpot contact for every lead posted to a webhook (email, first and last name, company).',
		note: 'a required parameter missing (email), fixed',
		turns: [
			search('webhook', 'hubspot'),
			lookup({ nodeId: 'n8n-nodes-base.hubspot', resource: 'contact', operation: 'upsert' }),
			reply('Webhook → HubSpot contact upsert.', hubspotContact(false)),
			reply('Added the email, which the upsert needs.', hubspotContact(true)),
		],
		expect: { valid: true, rounds: 2 },
	},
	{
		id: 'soap-rates',
		prompt:
			'Every night call our SOAP exchange-rate service with an XML body and convert the XML answer to JSON.',
		turns: [
			search('schedule trigger', 'http request', 'xml'),
			lookup('n8n-nodes-base.httpRequest', 'n8n-nodes-base.xml'),
			reply('HTTP Request with a raw XML body, then the XML node.', soapRequest),
		],
		expect: { valid: true, rounds: 1 },
	},
];
