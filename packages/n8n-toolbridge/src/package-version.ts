import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** This package's version, for server info (package.json is one folder up from src/ and dist/). */
export const PACKAGE_VERSION: string = (
	JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;
