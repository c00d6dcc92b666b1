// @ts-check
/**
 * Free loopback TCP ports for the servers the e2e suites start (n8n, its task-runner broker,
 * Postgres, Redis).
 *
 * The ports come from outside the kernel's ephemeral range (`ip_local_port_range`, 32768–60999 by
 * default). A port the kernel hands out for `listen(0)` is also one it hands to outgoing
 * connections: n8n's own Postgres, Redis and model traffic, or a suite running beside this one.
 * n8n SIGKILLed and started again keeps its port (the approve links a reviewer got name it), and
 * in the seconds between the kill and the start an outgoing connection once took that port
 * ("n8n's port … is already in use"). Below the ephemeral range only an explicit bind can.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Ports at or below this are never chosen (well-known and registered services). */
const LOWEST = 10_000;

/**
 * The kernel's ephemeral port range; the Linux default when it cannot be read.
 * @returns {[number, number]}
 */
function ephemeralRange() {
	try {
		const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
			.trim()
			.split(/\s+/)
			.map(Number);
		if (Number.isInteger(low) && Number.isInteger(high) && low <= high) return [low, high];
	} catch {
		// not Linux: fall through
	}
	return [32_768, 60_999];
}

/**
 * The ranges to pick from: everything above LOWEST that is not ephemeral.
 * @returns {Array<[number, number]>}
 */
function stableRanges() {
	const [low, high] = ephemeralRange();
	/** @type {Array<[number, number]>} */
	const ranges = [];
	if (low - 1 > LOWEST) ranges.push([LOWEST + 1, low - 1]);
	if (high < 65_535) ranges.push([Math.max(high + 1, LOWEST + 1), 65_535]);
	return ranges;
}

/**
 * Whether `port` can be bound on 127.0.0.1 now (then it is released again).
 * @param {number} port
 * @returns {Promise<boolean>}
 */
function canBind(port) {
	return new Promise((resolve) => {
		const server = createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/**
 * A port the OS hands out for `listen(0)`: the fallback when no stable range exists.
 * @returns {Promise<number>}
 */
function ephemeralPort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
		});
	});
}

/**
 * A free port on 127.0.0.1 outside the ephemeral range (random, so suites running side by side
 * rarely try the same one).
 * @returns {Promise<number>}
 * @throws {Error} when no port can be bound
 */
export async function freePort() {
	const ranges = stableRanges();
	const size = ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0);
	if (size === 0) return ephemeralPort();
	for (let attempt = 0; attempt < 200; attempt++) {
		let pick = Math.floor(Math.random() * size);
		for (const [from, to] of ranges) {
			const width = to - from + 1;
			if (pick < width) {
				const port = from + pick;
				if (await canBind(port)) return port;
				break;
			}
			pick -= width;
		}
	}
	throw new Error(
		`no free port outside the ephemeral range after 200 tries (ranges ${JSON.stringify(ranges)})`,
	);
}

/**
 * `count` distinct free ports.
 * @param {number} count
 * @returns {Promise<number[]>}
 * @throws {Error} when no port can be bound
 */
export async function freePorts(count) {
	const ports = new Set();
	while (ports.size < count) ports.add(await freePort());
	return [...ports];
}
