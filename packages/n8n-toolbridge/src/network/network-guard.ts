import { AsyncLocalStorage } from 'node:async_hooks';
import { isIP } from 'node:net';
import {
	n8nNetwork,
	type LookupAddress,
	type OutboundHttpLike,
	type SsrfProtection,
} from './n8n-network';

/** Options of the guard for URLs a model chooses. */
export interface NetworkGuardOptions {
	/** Let tools reach loopback, private, link-local and metadata addresses anyway (`--allow-private-network`). */
	allowPrivateNetwork?: boolean;
	/** Addresses or CIDR ranges that stay reachable, e.g. `['10.1.2.3', '192.168.7.0/24']`. */
	allow?: string[];
	/**
	 * Resolves a host name, for the check and for the connection that follows (so a name
	 * cannot resolve to one address for the check and another for the connection). Default:
	 * n8n's resolver (the system's `dns.lookup`, cached).
	 */
	lookup?: (hostname: string) => Promise<LookupAddress[]>;
}

/** One connection the guard refused. */
export interface NetworkRefusal {
	/** The refused IP address. */
	address: string;
	/** The host name that resolved to it, when the request named one. */
	hostname?: string;
}

/**
 * Ranges refused besides n8n's defaults (`N8N_SSRF_BLOCKED_IP_RANGES`: 10/8, 172.16/12,
 * 192.168/16, 127/8, ::1, 169.254/16, fe80::/10, fc00::/7, 0/8 and the documentation
 * ranges): shared address space (Tailscale, some cloud metadata at 100.100.100.200),
 * multicast and reserved, the unspecified IPv6 address, and IPv6 prefixes that embed an
 * IPv4 address (NAT64, 6to4).
 */
export const EXTRA_BLOCKED_RANGES: readonly string[] = [
	'100.64.0.0/10',
	'224.0.0.0/4',
	'240.0.0.0/4',
	'::/128',
	'ff00::/8',
	'64:ff9b::/96',
	'2002::/16',
];

interface GuardScope {
	outbound: OutboundHttpLike;
	refusals: NetworkRefusal[];
}

const scope = new AsyncLocalStorage<GuardScope>();
let installed = false;

/**
 * Puts a switching `OutboundHttp` into n8n's DI container, once per process: a request made
 * inside {@link NetworkGuard.run} goes through that guard's SSRF-enforcing client; any other
 * request through n8n's own (unchanged: SSRF protection as n8n's configuration says).
 */
function installSwitchingOutboundHttp(): void {
	if (installed) return;
	const { Container, OutboundHttp } = n8nNetwork();
	const original = Container.get<OutboundHttpLike>(OutboundHttp);
	const current = (): OutboundHttpLike => scope.getStore()?.outbound ?? original;
	const switching: OutboundHttpLike = {
		requests: (options) => current().requests(options),
		transport: (options) => current().transport(options),
		egressFilter: (policy) => current().egressFilter(policy),
	};
	Container.set(OutboundHttp, switching);
	installed = true;
}

/**
 * Refuses connections to loopback, private, link-local and cloud-metadata addresses for the
 * node runs it wraps — after DNS resolution, at connect time (a name cannot resolve to a
 * public address for a check and a private one for the connection) and on every redirect.
 * It is n8n's own SSRF protection (`@n8n/backend-network`), switched on only inside
 * {@link run}, so requests to addresses the workflow itself names keep working.
 */
export class NetworkGuard {
	private readonly ssrf: SsrfProtection;
	private readonly outbound: OutboundHttpLike;

	constructor(readonly options: NetworkGuardOptions = {}) {
		const network = n8nNetwork();
		const config = {
			enabled: true,
			blockedIpRanges: [...network.defaultBlockedRanges, ...EXTRA_BLOCKED_RANGES],
			allowedIpRanges: (options.allow ?? []).map((entry) =>
				entry.includes('/') ? entry : `${entry}/${isIP(entry) === 6 ? 128 : 32}`,
			),
			allowedHostnames: [],
			blockedHostnames: [],
			dnsCacheMaxSize: 1024 * 1024,
		};
		const resolver = options.lookup
			? { lookup: (hostname: string) => options.lookup!(hostname) }
			: new network.DnsResolver(new network.InMemoryDnsCache(config));
		const logger = network.Container.get(network.Logger);
		const ssrf = new network.SsrfProtectionService(config, resolver, logger);
		// Every path (pre-flight, connect time, redirect) ends in validateIp: record refusals there.
		const validateIp = ssrf.validateIp.bind(ssrf);
		ssrf.validateIp = (ip: string) => {
			const result = validateIp(ip);
			if (!result.ok) scope.getStore()?.refusals.push({ address: ip });
			return result;
		};
		const validateUrl = ssrf.validateUrl.bind(ssrf);
		ssrf.validateUrl = async (url: string | URL) => {
			const result = await validateUrl(url);
			if (!result.ok) nameLastRefusal(hostnameOf(url));
			return result;
		};
		const createSecureLookup = ssrf.createSecureLookup.bind(ssrf);
		ssrf.createSecureLookup = () => {
			const lookup = createSecureLookup();
			return ((
				hostname: string,
				lookupOptions: unknown,
				callback: (error: Error | null, ...rest: unknown[]) => void,
			) =>
				lookup(hostname, lookupOptions, (error: Error | null, ...rest: unknown[]) => {
					if (error) nameLastRefusal(hostname);
					callback(error, ...rest);
				})) as typeof lookup;
		};
		this.ssrf = ssrf;
		this.outbound = new network.OutboundHttp(ssrf, config, logger);
	}

	/**
	 * Runs `work` with the guard in force for every HTTP request n8n-core makes inside it,
	 * and reports the connections it refused.
	 */
	async run<T>(work: () => Promise<T>): Promise<{ value: T; refusals: NetworkRefusal[] }> {
		installSwitchingOutboundHttp();
		const store: GuardScope = { outbound: this.outbound, refusals: [] };
		const value = await scope.run(store, work);
		return { value, refusals: store.refusals };
	}

	/**
	 * Checks a URL as a request to it is checked before connecting (its host resolved with
	 * the guard's lookup; no connection is made).
	 */
	async check(url: string): Promise<NetworkCheck> {
		const store: GuardScope = { outbound: this.outbound, refusals: [] };
		const result = await scope.run(store, () => this.ssrf.validateUrl(url));
		if (result.ok) return { allowed: true };
		return { allowed: false, refusal: store.refusals[0], message: result.error.message };
	}
}

/** What {@link NetworkGuard.check} found. */
export interface NetworkCheck {
	allowed: boolean;
	/** The refused address (absent when the URL is invalid or its host does not resolve). */
	refusal?: NetworkRefusal;
	message?: string;
}

function nameLastRefusal(hostname: string | undefined): void {
	const last = scope.getStore()?.refusals.at(-1);
	if (last && last.hostname === undefined && hostname !== undefined && isIP(hostname) === 0)
		last.hostname = hostname;
}

function hostnameOf(url: string | URL): string | undefined {
	try {
		const hostname = (url instanceof URL ? url : new URL(url)).hostname;
		return isIP(hostname.replace(/^\[|\]$/g, '')) ? undefined : hostname;
	} catch {
		return undefined;
	}
}
