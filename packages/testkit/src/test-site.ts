import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A client's site for browser tests: HTML pages by path, on another origin than the service. */
export interface TestSite {
  /** `http://localhost:PORT`: localhost, not 127.0.0.1, so it is another origin than the service. */
  readonly url: string;
  /** Replaces the pages (path → HTML). */
  serve(pages: Record<string, string>): void;
  close(): Promise<void>;
}

export async function startTestSite(): Promise<TestSite> {
  let pages: Record<string, string> = {};
  const server = createServer((request, response) => {
    const body = pages[request.url ?? ''];
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    serve: (next) => void (pages = next),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
