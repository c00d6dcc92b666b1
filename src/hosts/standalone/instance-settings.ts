import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import type { InstanceSettings } from 'n8n-core';

/** n8n's DI container, resolved from n8n-core so it is the very instance n8n-core uses. */
function n8nContainer(): { set(token: unknown, value: unknown): void } {
	const requireFromCore = createRequire(require.resolve('n8n-core'));
	return (requireFromCore('@n8n/di') as { Container: ReturnType<typeof n8nContainer> }).Container;
}

let installed: InstanceSettings | undefined;

/**
 * Puts an in-memory `InstanceSettings` into n8n's DI container, once per process.
 *
 * Every n8n-core node context calls `Container.get(InstanceSettings)`; constructed by the
 * container it would read or write an encryption key in `~/.n8n/config`. A standalone tool
 * host must not touch the user's n8n folder, so the settings are built without running the
 * constructor: a throw-away encryption key, and the system temp folder as the n8n folder
 * (only file-system nodes look at it).
 */
export function ensureStandaloneInstanceSettings(
	InstanceSettingsClass: typeof InstanceSettings,
): InstanceSettings {
	if (installed) return installed;
	const n8nFolder = tmpdir();
	const instanceId = randomBytes(16).toString('hex');
	const settings = Object.create(InstanceSettingsClass.prototype) as InstanceSettings;
	Object.assign(settings, {
		n8nFolder,
		staticCacheDir: n8nFolder,
		customExtensionDir: n8nFolder,
		nodesDownloadDir: n8nFolder,
		nodeDefinitionsDir: n8nFolder,
		settingsFile: '',
		settings: { encryptionKey: randomBytes(24).toString('base64') },
		instanceId,
		derivedInstanceId: instanceId,
		hmacSignatureSecret: randomBytes(32).toString('hex'),
		instanceType: 'main',
		instanceRole: 'unset',
		hostId: `toolbridge-${instanceId.slice(0, 8)}`,
		isMultiMainEnabled: false,
		isMultiMainLicensed: false,
		enforceSettingsFilePermissions: { isSet: false, enforce: false },
	});
	// `Container.has` is true for any decorated class, instance or not: remember our own.
	n8nContainer().set(InstanceSettingsClass, settings);
	installed = settings;
	return settings;
}
