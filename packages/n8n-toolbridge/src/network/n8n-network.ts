import { createRequire } from 'node:module';

/** A DNS answer, as `dns.lookup(…, { all: true })` gives it. */
export interface LookupAddress {
	address: string;
	family: number;
}

/** n8n's result type (`@n8n/utils/result`). */
export type SsrfCheckResult = { ok: true; result?: unknown } | { ok: false; error: Error };

/** The part of n8n's `SsrfProtectionService` the guard uses. */
export interface SsrfProtection {
	validateUrl(url: string | URL): Promise<SsrfCheckResult>;
	validateIp(ip: string): SsrfCheckResult;
	createSecureLookup(): (
		hostname: string,
		options: unknown,
		callback: (error: Error | null, ...rest: unknown[]) => void,
	) => void;
}

/** The part of n8n's `OutboundHttp` (the HTTP client every n8n-core request helper gets from the DI container). */
export interface OutboundHttpLike {
	requests(options?: unknown): unknown;
	transport(options?: unknown): unknown;
	egressFilter(policy?: unknown): unknown;
}

interface N8nNetworkModules {
	Container: { get<T>(token: unknown): T; set(token: unknown, value: unknown): void };
	OutboundHttp: new (ssrf: unknown, config: unknown, logger: unknown) => OutboundHttpLike;
	SsrfProtectionService: new (
		config: unknown,
		resolver: unknown,
		logger: unknown,
	) => SsrfProtection;
	DnsResolver: new (cache: unknown) => {
		lookup(hostname: string, options?: object): Promise<LookupAddress[]>;
	};
	InMemoryDnsCache: new (config: unknown) => unknown;
	Logger: unknown;
	defaultBlockedRanges: readonly string[];
}

let modules: N8nNetworkModules | undefined;

/**
 * n8n's outbound-HTTP and SSRF classes, required from n8n-core's own location so they are
 * the very instances n8n-core's request helpers use (one DI container per process).
 */
export function n8nNetwork(): N8nNetworkModules {
	if (modules) return modules;
	const requireFromCore = createRequire(require.resolve('n8n-core'));
	const network = requireFromCore('@n8n/backend-network');
	modules = {
		Container: requireFromCore('@n8n/di').Container,
		OutboundHttp: network.OutboundHttp,
		SsrfProtectionService: network.SsrfProtectionService,
		DnsResolver: network.DnsResolver,
		InMemoryDnsCache: network.InMemoryDnsCache,
		Logger: requireFromCore('@n8n/backend-common').Logger,
		defaultBlockedRanges: requireFromCore('@n8n/config').SSRF_DEFAULT_BLOCKED_IP_RANGES,
	};
	return modules;
}
