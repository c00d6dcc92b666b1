#!/usr/bin/env node
'use strict';
// The `toolbridge` command. Node >= 22.1 can keep the compiled code of every module on disk,
// which cuts the start of the next run (n8n's libraries are large); older Node just starts.
const { enableCompileCache } = require('node:module');
if (typeof enableCompileCache === 'function') enableCompileCache();
require('../dist/cli/main.js');
