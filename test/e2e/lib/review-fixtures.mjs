// @ts-check
/**
 * What the human-review scenarios of every suite share: the gated tool call a scripted model
 * makes, the review mail's links, and opening the approve or decline link as a person would.
 *
 * The link is requested with a browser user agent: n8n's `sendAndWaitWebhook` answers requests
 * whose user agent `isbot()` flags (link previews, mail scanners) with an empty HTTP 200 and does
 * NOT resume — and isbot 3.6 flags Node's own fetch (`node`, `undici`).
 */
import { assertToolSchema, checkRequest, matchStreaming } from './fake-model.mjs';
import { node } from './workflows.mjs';

/** What a person's browser sends. */
export const BROWSER_USER_AGENT =
	'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** The observation of a declined call: ours says "declined", n8n's agent "User rejected". */
export const DECLINE_PATTERN = /declined|rejected/i;

/**
 * Check a request to a review scenario's model (path, key, model) and that it offers the gated
 * (`…HitlTool`) tool `name`, whose arguments are wrapped in a required `toolParameters` object.
 * @param {any} request
 * @param {string} model
 * @param {string} name
 * @returns {any} the request body
 * @throws {Error} naming what differs
 */
export function checkGatedRequest(request, model, name) {
	checkRequest(request, model);
	assertToolSchema(request.body, name, {
		properties: { toolParameters: 'object' },
		required: ['toolParameters'],
	});
	return request.body;
}

/**
 * The reply calling the gated tool `name` once (id `call_review`) with `toolParameters`.
 * @param {any} request
 * @param {any} fake the fake chat server module
 * @param {{ name: string, toolParameters: Record<string, unknown>, model: string }} call
 * @returns {any} a FakeReply
 */
export function gatedCallReply(request, fake, { name, toolParameters, model }) {
	return matchStreaming(
		request,
		fake.toolCallReply(
			[{ id: 'call_review', name, arguments: { toolParameters, hitlParameters: {} } }],
			{ model },
		),
	);
}

/**
 * The links of a review mail (HTML-unescaped).
 * @param {string} mailText
 * @returns {string[]}
 */
export function reviewLinks(mailText) {
	return [...mailText.matchAll(/href="([^"]+)"/g)].map((match) => match[1].replace(/&amp;/g, '&'));
}

/**
 * The approve or decline link among a review mail's links.
 * @param {string[]} links
 * @param {'approve' | 'decline'} decision
 * @returns {string}
 * @throws {Error} when the mail has none
 */
export function decisionLink(links, decision) {
	const link = links.find((href) => href.includes(`approved=${decision === 'approve'}`));
	if (!link) throw new Error(`no ${decision} link in the mail: ${JSON.stringify(links)}`);
	return link;
}

/**
 * Open a decision link against `n8n`, as a person's browser would.
 * @param {{ baseUrl: string }} n8n
 * @param {string} link
 * @param {'approve' | 'decline'} decision
 * @returns {Promise<{ status: number, title: string }>} the HTTP status and the page's title
 * @throws {Error} on an error status, or an empty page (n8n took the request for a bot's)
 */
export async function openDecisionLink(n8n, link, decision) {
	const click = await fetch(link.replace(/^https?:\/\/[^/]+/, n8n.baseUrl), {
		headers: { 'user-agent': BROWSER_USER_AGENT },
	});
	const page = (await click.text()).replace(/\s+/g, ' ');
	if (!click.ok) throw new Error(`${decision} link: HTTP ${click.status} ${page.slice(0, 300)}`);
	const title = /<title>([^<]*)<\/title>/i.exec(page)?.[1] ?? page.slice(0, 200);
	if (title.trim() === '')
		throw new Error(
			`the ${decision} link answered HTTP ${click.status} with an empty page (n8n took the request for a bot's)`,
		);
	return { status: click.status, title };
}

/**
 * The data of an SMTP credential for the loopback sink (lib/smtp-sink.mjs).
 * @param {number} port the sink's port
 * @returns {Record<string, unknown>}
 */
export function smtpSinkCredentialData(port) {
	return {
		user: '',
		password: '',
		host: '127.0.0.1',
		port,
		secure: false,
		disableStartTls: true,
	};
}

/**
 * The review gate: Email Send's send-and-wait tool variant named `Review`, mailing the
 * reviewer "Approve <what> of: <the tool's text>" with approve and decline links.
 * @param {{ id: string, name: string }} smtpCredential
 * @param {string} what e.g. `hashing`
 * @param {number} [typeVersion]
 * @returns {import('./workflows.mjs').WorkflowNode}
 */
export function emailReviewNode(smtpCredential, what, typeVersion = 2.1) {
	return node(
		'Review',
		'n8n-nodes-base.emailSendHitlTool',
		typeVersion,
		{
			fromEmail: 'agent@toolbridge.invalid',
			toEmail: 'reviewer@toolbridge.invalid',
			subject: 'Approve a tool call',
			message: `=Approve ${what} of: {{ $json.toolParameters.text }}`,
			approvalOptions: { values: { approvalType: 'double' } },
			options: { appendAttribution: false },
		},
		{ smtp: smtpCredential },
	);
}
