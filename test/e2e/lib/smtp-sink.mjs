// @ts-check
/**
 * A loopback SMTP sink: just enough of RFC 5321 (no TLS, no auth) for nodemailer to hand
 * over mails, which are kept in memory. Used by the human-review (send-and-wait) scenarios.
 */
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * @typedef {{ from: string, to: string[], raw: string, text: string }} CapturedMail
 *   `text`: the raw message with quoted-printable and base64 bodies decoded
 */

/**
 * Decode what nodemailer encoded: quoted-printable soft breaks and `=XX` bytes, and base64
 * body blocks (appended decoded).
 * @param {string} raw
 * @returns {string}
 */
export function decodeMail(raw) {
	const qp = raw.replace(/=\r?\n/g, '');
	const bytes = [];
	for (let index = 0; index < qp.length; index++) {
		const hex = qp.slice(index + 1, index + 3);
		if (qp[index] === '=' && /^[0-9A-F]{2}$/.test(hex)) {
			bytes.push(Number.parseInt(hex, 16));
			index += 2;
		} else {
			bytes.push(...Buffer.from(qp[index], 'utf8'));
		}
	}
	let text = Buffer.from(bytes).toString('utf8');
	for (const block of raw.match(/(?:^[A-Za-z0-9+/=]{40,}\r?\n)+/gm) ?? []) {
		text += `\n${Buffer.from(block.replace(/\s+/g, ''), 'base64').toString('utf8')}`;
	}
	return text;
}

/**
 * Start the sink on 127.0.0.1 (free port).
 * @returns {Promise<{ port: number, mails: CapturedMail[], waitForMail: (count: number, timeoutMs?: number) => Promise<CapturedMail>, close: () => Promise<void> }>}
 */
export async function startSmtpSink() {
	/** @type {CapturedMail[]} */
	const mails = [];
	/** @type {Set<import('node:net').Socket>} */
	const sockets = new Set();
	const server = createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => undefined);
		let buffer = '';
		let inData = false;
		let from = '';
		/** @type {string[]} */
		let to = [];
		const reply = (/** @type {string} */ line) => socket.write(`${line}\r\n`);
		reply('220 toolbridge-e2e ESMTP sink');
		socket.on('data', (chunk) => {
			buffer += chunk.toString('latin1');
			for (;;) {
				if (inData) {
					const end = buffer.indexOf('\r\n.\r\n');
					if (end < 0) return;
					const raw = Buffer.from(buffer.slice(0, end), 'latin1')
						.toString('utf8')
						.replace(/^\.\./gm, '.');
					buffer = buffer.slice(end + 5);
					inData = false;
					mails.push({ from, to, raw, text: decodeMail(raw) });
					reply('250 2.0.0 queued');
					continue;
				}
				const newline = buffer.indexOf('\r\n');
				if (newline < 0) return;
				const line = buffer.slice(0, newline);
				buffer = buffer.slice(newline + 2);
				const verb = line.slice(0, 4).toUpperCase();
				if (verb === 'EHLO') reply('250-toolbridge-e2e\r\n250 8BITMIME');
				else if (verb === 'HELO') reply('250 toolbridge-e2e');
				else if (verb === 'MAIL') {
					from = line.slice(10).trim();
					to = [];
					reply('250 2.1.0 ok');
				} else if (verb === 'RCPT') {
					to.push(line.slice(8).trim());
					reply('250 2.1.5 ok');
				} else if (verb === 'DATA') {
					inData = true;
					reply('354 end with <CRLF>.<CRLF>');
				} else if (verb === 'QUIT') {
					reply('221 bye');
					socket.end();
				} else reply('250 ok');
			}
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		port,
		mails,
		async waitForMail(count, timeoutMs = 60_000) {
			const deadline = Date.now() + timeoutMs;
			while (mails.length < count) {
				if (Date.now() > deadline)
					throw new Error(
						`no mail #${count} reached the SMTP sink within ${timeoutMs / 1000} s (got ${mails.length})`,
					);
				await sleep(200);
			}
			return mails[count - 1];
		},
		close: () =>
			new Promise((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve(undefined));
			}),
	};
}
