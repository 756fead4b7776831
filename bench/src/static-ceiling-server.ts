// The static ceiling: a plain node:http server that serves files from a directory as a
// minimal static server does (stat, content type, ETag, a read stream), for the hosting
// bench's ratio. `node static-ceiling-server.js DIR` prints `{"port":N}`; SIGTERM ends it.
// With `--memory` it reads every file once at start and answers from memory: the stricter
// reference, since svc holds small files in memory too.
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';

const root = process.argv[2]!;
const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'application/javascript; charset=utf-8' };
const inMemory = process.argv.includes('--memory');
const held = new Map<string, { content: Buffer; headers: Record<string, string | number> }>();
if (inMemory) {
  for (const name of await readdir(root)) {
    const path = join(root, name);
    const [content, info] = await Promise.all([readFile(path), stat(path)]);
    held.set(path, { content, headers: { 'content-type': types[extname(path)] ?? 'application/octet-stream', 'content-length': content.length, etag: `"${info.size}-${info.mtimeMs}"`, 'cache-control': 'public, max-age=0, must-revalidate' } });
  }
}
const server = createServer((request, response) => {
  const path = join(root, (request.url ?? '/') === '/' ? 'index.html' : (request.url ?? '').slice(1));
  if (inMemory) {
    const file = held.get(path);
    response.writeHead(file ? 200 : 404, file?.headers);
    response.end(file?.content);
    return;
  }
  stat(path).then(
    (info) => {
      response.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream', 'content-length': info.size, etag: `"${info.size}-${info.mtimeMs}"`, 'cache-control': 'public, max-age=0, must-revalidate' });
      createReadStream(path).pipe(response);
    },
    () => {
      response.writeHead(404);
      response.end();
    },
  );
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
