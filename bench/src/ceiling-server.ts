// The ceiling: a raw node:http server that reads the whole body and answers like an accepted
// submission. Prints `{"port":N}` once listening; SIGTERM ends it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const answer = Buffer.from('{"ok":true,"id":"x"}');
const server = createServer((request, response) => {
  request.on('data', () => undefined);
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.length });
    response.end(answer);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
