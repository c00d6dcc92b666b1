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

/** @type {{ ranges: Array<[number, number]>, size: number } | undefined} */
let stable;

/** The stable ranges and how many ports they hold (read once per process). */
function measureStable() {
	const ranges = stableRanges();
	return { ranges, size: ranges.reduce((sum, [from, to]) => sum + to - from + 1, 0) };
}

/**
 * Binds `port` on 127.0.0.1 (0: any port the OS picks) and releases it again.
 * @param {number} port
 * @returns {Promise<number | undefined>} the port bound, or undefined when it is taken
 */
function bindAndRelease(port) {
	return new Promise((resolve) => {
		const server = createServer();
		server.unref();
		server.once('error', () => resolve(undefined));
		server.listen(port, '127.0.0.1', () => {
			const address = server.address();
			const bound = typeof address === 'object' && address ? address.port : undefined;
			server.close(() => resolve(bound));
		});
	});
}

/**
 * A random port of `ranges`.
 * @param {Array<[number, number]>} ranges
 * @param {number} size how many ports they hold together
 * @returns {number}
 */
function pick(ranges, size) {
	let index = Math.floor(Math.random() * size);
	for (const [from, to] of ranges) {
		if (index <= to - from) return from + index;
		index -= to - from + 1;
	}
	return ranges[0][0];
}

/**
 * A free port on 127.0.0.1 outside the ephemeral range (random, so suites running side by side
 * rarely try the same one; one the OS picks when there is no port outside it).
 * @returns {Promise<number>}
 * @throws {Error} when no port can be bound
 */
export async function freePort() {
	const { ranges, size } = (stable ??= measureStable());
	for (let attempt = 0; attempt < 200; attempt++) {
		const port = await bindAndRelease(size === 0 ? 0 : pick(ranges, size));
		if (port) return port;
	}
	throw new Error(`no free port after 200 tries (ranges ${JSON.stringify(ranges)})`);
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
