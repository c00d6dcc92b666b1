/** This package's version, for server info and `--version` (package.json is one folder up from src/ and dist/). */
export const PACKAGE_VERSION: string = (require('../package.json') as { version: string }).version;
