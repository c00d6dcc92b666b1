/**
 * The guard's decision for URLs a model chooses, table-driven, with a stubbed resolver: no
 * DNS query and no connection leaves the machine.
 */
import { describe, expect, it } from 'vitest';
import { NetworkGuard } from '../../src/network/network-guard';

const dns: Record<string, string[]> = {
	'public.example': ['93.184.216.34'],
	'dual.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
	'sneaky.example': ['127.0.0.1'],
	'mixed.example': ['93.184.216.34', '10.0.0.8'],
	'metadata.example': ['169.254.169.254'],
	'v6-loopback.example': ['::1'],
};
const lookups: string[] = [];
const guard = new NetworkGuard({
	lookup: async (hostname) => {
		lookups.push(hostname);
		const addresses = dns[hostname];
		if (!addresses)
			throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
		return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
	},
});

describe('NetworkGuard.check', () => {
	it.each([
		['http://127.0.0.1:8080/', '127.0.0.1'],
		['http://127.9.9.9/', '127.9.9.9'],
		['http://[::1]:3000/', '::1'],
		['http://10.1.2.3/', '10.1.2.3'],
		['http://172.16.0.1/', '172.16.0.1'],
		['http://192.168.1.1/', '192.168.1.1'],
		['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
		['http://100.100.100.200/latest/meta-data/', '100.100.100.200'],
		['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
		['http://[fe80::1]/', 'fe80::1'],
		['http://0.0.0.0:80/', '0.0.0.0'],
		['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
		['http://2130706433/', '127.0.0.1'],
		['http://sneaky.example/', '127.0.0.1'],
		['http://metadata.example/computeMetadata/v1/', '169.254.169.254'],
		['http://mixed.example/', '10.0.0.8'],
		['http://v6-loopback.example/', '::1'],
	])('%s is refused (%s)', async (url, address) => {
		const check = await guard.check(url);
		expect(check.allowed).toBe(false);
		expect(check.refusal?.address).toBe(address);
	});

	it.each([
		['https://public.example/items'],
		['http://dual.example:8080/'],
		['http://93.184.216.34/'],
	])('%s is allowed', async (url) => {
		expect(await guard.check(url)).toEqual({ allowed: true });
	});

	it("a name is resolved with the guard's resolver (never the system's) and named in the refusal", async () => {
		lookups.length = 0;
		const check = await guard.check('http://sneaky.example/x');
		expect(lookups).toEqual(['sneaky.example']);
		expect(check.refusal).toEqual({ address: '127.0.0.1', hostname: 'sneaky.example' });
	});

	it('allow lists addresses that stay reachable', async () => {
		const allowing = new NetworkGuard({
			allow: ['10.1.2.3', '192.168.7.0/24'],
			lookup: async () => [],
		});
		expect(await allowing.check('http://10.1.2.3/')).toEqual({ allowed: true });
		expect(await allowing.check('http://192.168.7.40/')).toEqual({ allowed: true });
		expect((await allowing.check('http://10.1.2.4/')).allowed).toBe(false);
	});
});
