#!/usr/bin/env node
// The only place that ends the process: handlers return exit codes to main().
import { main } from '../dist/main.js';
import { processIo } from '../dist/io.js';

const code = await main(process.argv.slice(2), processIo());
process.exit(code);
