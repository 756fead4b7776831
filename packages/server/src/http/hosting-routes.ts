import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contentType } from 'mime-types';
import parseRange from 'range-parser';
import { cacheControl, sitePath } from '../hosting/site-paths.js';
import { DeployManifests } from '../hosting/deploy-manifests.js';
import { answerPath } from '../hosting/site-answer.js';
import { HeldContents, readAll } from '../hosting/held-contents.js';
import { serviceHostnames, siteHostname } from '../sites/hosted-sites.js';
import { SiteDirectory } from '../sites/site-directory.js';
import { WidgetTags } from '../hosting/widget-tags.js';
import type { OperationContext } from '../operations/context.js';
import type { DeployFileRow } from '../store/schema.js';
import { etagMatches } from './etag.js';

/** What answers on every hostname, hosted or not: the form endpoint and the widget (docs/hosting.md). */
const servicePaths = /^\/(api\/f\/|api\/p\/|pinpoints\.js|pinpoints-capture\.|altcha\.js)/;
/** HTML larger than this is served as it is, without the widget's tag. */
const maxInjectedHtmlBytes = 5 * 1024 * 1024;

/**
 * Static hosting (docs/hosting.md): a request whose `Host` is a hosted site is answered
 * from that site's deploy before any route sees it. Added with skip-override so that the
 * hook applies to the whole app, not only to this plugin's routes.
 */
export function hostingPlugin(context: OperationContext) {
  let ownNames: Set<string> | null = null;
  const manifests = new DeployManifests(context.store.db, context.store.files);
  const sites = new SiteDirectory(context.store, context.options.previewDomain);
  const widgetTags = new WidgetTags(context);
  const contents = new HeldContents(context.store.files);
  // Contents removed (an erasure, the sweep) are announced like a change of what is served.
  const stopClearing = context.store.signals.sites.on(() => contents.clear());
  const own = (): Set<string> => {
    if (ownNames) return ownNames;
    const names = serviceHostnames(context);
    // Known once the server listens (the base URL defaults to its address): held from then on.
    if (context.urls.baseUrl !== '') ownNames = names;
    return names;
  };
  const plugin = (app: FastifyInstance): Promise<void> => {
    app.addHook('onRequest', async (request, reply) => {
      if (servicePaths.test(request.url)) return;
      const hostname = siteHostname(request.headers.host, own());
      if (hostname === null) return;
      const target = await sites.resolve(hostname);
      if (target === null) return;
      // Work in progress never lands in search results: every answer of a site that is not
      // production, and every preview, says noindex (docs/hosting.md#not-found-pages-and-search-engines).
      const hidden = target.preview || target.environment !== 'production';
      if (hidden) void reply.header('x-robots-tag', 'noindex');
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        return reply.code(405).header('allow', 'GET, HEAD').type('text/plain; charset=utf-8').send('Method not allowed');
      }
      if (hidden && isRobotsTxt(request.url)) {
        return reply.code(200).type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(disallowEverything);
      }
      if (target.deployId === null) return reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('Nothing is deployed here yet.');
      return serveSite({ manifests, widgetTags, contents }, request, reply, { ...target, deployId: target.deployId, hidden });
    });
    app.addHook('onClose', (_app, done) => {
      sites.close();
      widgetTags.close();
      stopClearing();
      done();
    });
    return Promise.resolve();
  };
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}

/** What a site that is not production answers at `/robots.txt`, whatever its deploy holds. */
const disallowEverything = 'User-agent: *\nDisallow: /\n';

/** `/robots.txt`, however it is encoded (`/robots%2Etxt` names the same file). */
function isRobotsTxt(url: string): boolean {
  const query = url.indexOf('?');
  const path = sitePath(query === -1 ? url : url.slice(0, query));
  return path !== null && !path.directory && path.segments.length === 1 && path.segments[0] === 'robots.txt';
}

async function serveSite(
  caches: { manifests: DeployManifests; widgetTags: WidgetTags; contents: HeldContents },
  request: FastifyRequest,
  reply: FastifyReply,
  target: { deployId: string; projectId: string; environment: string; hidden: boolean },
): Promise<FastifyReply> {
  const query = request.url.indexOf('?');
  const path = query === -1 ? request.url : request.url.slice(0, query);
  const deploy = await caches.manifests.deploy(target.deployId);
  const { answer, headers } = await answerPath(deploy, path, query === -1 ? '' : request.url.slice(query + 1));
  if (answer.kind === 'redirect') return reply.code(answer.status).header('location', answer.location).send();
  // What _headers sets replaces the service's own header of that name; noindex stays.
  const finish = (): FastifyReply => {
    for (const [name, value] of headers) void reply.header(name, value);
    if (target.hidden) void reply.header('x-robots-tag', 'noindex');
    return reply;
  };
  if (answer.kind === 'missing') return finish().code(404).type('text/plain; charset=utf-8').send('Not found');
  return serveFile(caches, request, reply, target, answer.file, answer.status, finish);
}

async function serveFile(
  caches: { widgetTags: WidgetTags; contents: HeldContents },
  request: FastifyRequest,
  reply: FastifyReply,
  target: { projectId: string; environment: string },
  file: DeployFileRow,
  status: 200 | 404,
  finish: () => FastifyReply,
): Promise<FastifyReply> {
  const type = contentType(file.path.slice(file.path.lastIndexOf('/') + 1)) || 'application/octet-stream';
  void reply
    .header('content-type', type)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', status === 404 ? 'no-cache' : cacheControl(file.path, type));

  const widgetTag = type.startsWith('text/html') ? await caches.widgetTags.tagFor(target.projectId, target.environment) : null;
  const withWidget = widgetTag === null ? null : await sendWithWidget(caches.contents, request, reply, file, status, widgetTag, finish);
  if (withWidget !== null) return withWidget;

  const etag = `"${file.sha256.slice(0, 32)}"`;
  void reply.header('etag', etag).header('accept-ranges', 'bytes');
  if (status === 200 && etagMatches(request.headers['if-none-match'], etag)) return finish().code(304).send();
  // The size is the stored file's, never the deploy's declaration (docs/hosting.md): the
  // answer carries exactly the bytes its content-length announces.
  const content = await caches.contents.find(file.sha256);
  if (content === null) return notFound(finish());
  const range = status === 200 ? requestedRange(request, etag, content.size) : null;
  if (range === 'unsatisfiable') return finish().code(416).header('content-range', `bytes */${content.size}`).send();
  finish();
  if (range !== null) void reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${content.size}`).header('content-length', String(range.end - range.start + 1));
  else void reply.code(status).header('content-length', String(content.size));
  if (request.method === 'HEAD') return reply.send();
  // Small files from memory; larger ones streamed from the file store, never read whole.
  if (content.bytes !== null) return reply.send(range === null ? content.bytes : content.bytes.subarray(range.start, range.end + 1));
  return reply.send(content.read(range ?? undefined));
}

/**
 * The page with the Pinpoints tag before `</body>`: whole, so no ranges; its ETag names the
 * tag too. Null for a page too large to take the tag, which is served as it is.
 */
async function sendWithWidget(contents: HeldContents, request: FastifyRequest, reply: FastifyReply, file: DeployFileRow, status: number, tag: string, finish: () => FastifyReply): Promise<FastifyReply | null> {
  const tagHash = createHash('sha256').update(tag).digest('hex').slice(0, 8);
  const etag = `"${file.sha256.slice(0, 24)}-${tagHash}"`;
  // Only a page that took the tag was ever sent with this ETag.
  if (status === 200 && etagMatches(request.headers['if-none-match'], etag)) return finish().header('etag', etag).code(304).send();
  const key = `${file.sha256}:${tagHash}`;
  let body = contents.get(key);
  if (body === undefined) {
    const page = await contents.find(file.sha256);
    if (page === null) return notFound(finish());
    if (page.size > maxInjectedHtmlBytes) return null;
    const html = (page.bytes ?? (await readAll(page.read()))).toString('utf8');
    const at = html.toLowerCase().lastIndexOf('</body>');
    body = Buffer.from(at === -1 ? `${html}${tag}` : `${html.slice(0, at)}${tag}${html.slice(at)}`, 'utf8');
    contents.hold(key, body);
  }
  void reply.header('etag', etag);
  void finish().code(status).header('content-length', String(body.length));
  return request.method === 'HEAD' ? reply.send() : reply.send(body);
}

function notFound(reply: FastifyReply): FastifyReply {
  return reply.code(404).removeHeader('etag').removeHeader('accept-ranges').type('text/plain; charset=utf-8').send('Not found');
}

function requestedRange(request: FastifyRequest, etag: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const header = request.headers.range;
  if (header === undefined) return null;
  const ifRange = request.headers['if-range'];
  if (ifRange !== undefined && ifRange !== etag) return null;
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  // Malformed, or several ranges (multipart answers are not made): the whole file.
  if (ranges === -2 || ranges.length !== 1 || ranges.type !== 'bytes') return null;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

