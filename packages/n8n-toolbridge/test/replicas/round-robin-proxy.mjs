// @ts-check
/**
 * A small loopback round-robin proxy in front of replicas: each request goes to the next
 * replica; it moves on only when a connection is refused (nothing was sent), and never re-sends
 * a request a replica received, since its tool may have run or its turn been answered.
 */
import http from 'node:http';

/**
 * @param {Array<{ port: number, served: number }>} replicas counted in `served`
 * @returns {Promise<{ url: string, close: () => void }>} `http://127.0.0.1:PORT`
 */
export async function startRoundRobinProxy(replicas) {
	let next = 0;
	const proxy = http.createServer(async (request, response) => {
		const chunks = [];
		for await (const chunk of request) chunks.push(chunk);
		const body = Buffer.concat(chunks);
		for (let attempt = 0; attempt < replicas.length; attempt++) {
			const replica = replicas[next++ % replicas.length];
			const outcome = await new Promise((resolvePromise) => {
				const upstream = http.request(
					{
						host: '127.0.0.1',
						port: replica.port,
						method: request.method,
						path: request.url,
						headers: request.headers,
					},
					(answer) => {
						replica.served++;
						response.writeHead(answer.statusCode ?? 502, answer.headers);
						answer.pipe(response);
						answer.on('end', () => resolvePromise('answered'));
						answer.on('error', () => resolvePromise('broken'));
					},
				);
				upstream.on('error', (error) =>
					resolvePromise(
						/** @type {NodeJS.ErrnoException} */ (error).code === 'ECONNREFUSED'
							? 'refused'
							: 'broken',
					),
				);
				upstream.end(body);
			});
			if (outcome === 'answered') return;
			if (outcome === 'broken') return void response.destroy();
		}
		response.writeHead(502).end();
	});
	await new Promise((resolvePromise) =>
		proxy.listen(0, '127.0.0.1', () => resolvePromise(undefined)),
	);
	const address = /** @type {import('node:net').AddressInfo} */ (proxy.address());
	return { url: `http://127.0.0.1:${address.port}`, close: () => proxy.close() };
}
