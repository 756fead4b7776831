#!/usr/bin/env node
// The only place that ends the process: handlers return exit codes to main(). Output still
// queued for a pipe is flushed first, so long --json documents arrive whole.
import { main } from '../dist/main.js';
import { processIo } from '../dist/io.js';
import { flush } from '../dist/flush.js';

// A reader that stops early (`svc --help | head`) is not an error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

const io = processIo();
const code = await main(process.argv.slice(2), io);
await Promise.all([flush(io.stdout), flush(io.stderr)]);
process.exit(code);
