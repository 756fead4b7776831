import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createForm, createWebhook, type FormFixture, newEncryptionKey, type SvcProcess } from '@svc/testkit';
import { delay, type ProblemList, type ScenarioResult } from '../harness/report.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';
import type { Store } from '@svc/server';

export interface SsrfOptions extends ScenarioOptions {
  /** How long each delivery has to be attempted and refused. */
  readonly waitMs: number;
}

/** IP literals of every refused kind, in the spellings URL parsers accept. */
const literalTargets = [
  'http://127.0.0.1/hook', 'http://127.1/hook', 'http://2130706433/hook', 'http://0x7f000001/hook', 'http://0177.0.0.1/hook', 'http://0.0.0.0/hook',
  'http://10.0.0.1/hook', 'http://172.16.5.4/hook', 'http://192.168.0.1/hook', 'http://100.64.0.1/hook',
  'http://169.254.169.254/latest/meta-data/', 'http://169.254.10.10/hook', 'http://100.100.100.200/latest/meta-data/',
  'http://[::1]/hook', 'http://[::]/hook', 'http://[::ffff:127.0.0.1]/hook', 'http://[::ffff:a9fe:a9fe]/hook', 'http://[fe80::1]/hook', 'http://[fd00:ec2::254]/hook', 'http://[fc00::1]/hook',
  'http://224.0.0.1/hook', 'http://255.255.255.255/hook', 'https://127.0.0.1:8443/hook',
];

/**
 * Names a fake resolver in the server process answers (the server's own code still resolves
 * them, checks every address and connects): a DNS server could answer the same.
 */
const resolverTable = (receiverPort: number): Record<string, { addresses: string[]; url: string }> => ({
  'loopback.ssrf.test': { addresses: ['127.0.0.1'], url: `http://loopback.ssrf.test:${receiverPort}/hook` },
  'v6-loopback.ssrf.test': { addresses: ['::1'], url: `http://v6-loopback.ssrf.test:${receiverPort}/hook` },
  'mapped.ssrf.test': { addresses: ['::ffff:127.0.0.1'], url: `http://mapped.ssrf.test:${receiverPort}/hook` },
  'private.ssrf.test': { addresses: ['10.1.2.3'], url: 'http://private.ssrf.test/hook' },
  'link-local.ssrf.test': { addresses: ['169.254.3.4'], url: 'http://link-local.ssrf.test/hook' },
  'metadata.ssrf.test': { addresses: ['169.254.169.254'], url: 'http://metadata.ssrf.test/latest/meta-data/' },
  'unique-local.ssrf.test': { addresses: ['fd12:3456::1'], url: 'http://unique-local.ssrf.test/hook' },
  // One public and one private address: refused, since either could be used.
  'mixed.ssrf.test': { addresses: ['8.8.8.8', '10.9.9.9'], url: 'http://mixed.ssrf.test/hook' },
});

/** The preload that makes the server process resolve the names above (written to the data dir). */
const fakeResolverSource = `
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
const table = JSON.parse(process.env.SVC_RELIABILITY_FAKE_DNS ?? '{}');
const rotating = JSON.parse(process.env.SVC_RELIABILITY_REBINDING_DNS ?? '{}');
const asked = new Map();
const original = dns.lookup;
dns.lookup = function lookup(hostname, options, callback) {
  if (typeof options === 'function') { callback = options; options = {}; }
  if (typeof options === 'number') options = { family: options };
  const name = String(hostname).toLowerCase();
  let entry = table[name];
  // A rebinding name answers each lookup with the next of its answers, in turn.
  if (rotating[name]) {
    const count = asked.get(name) ?? 0;
    asked.set(name, count + 1);
    entry = rotating[name][count % rotating[name].length];
  }
  if (!entry) return original.call(dns, hostname, options, callback);
  const addresses = entry.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  process.nextTick(() => (options && options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family)));
};
syncBuiltinESMExports();
`;

const deliveryFlags = ['--retry-schedule', '100ms,100ms', '--delivery-timeout', '1s', '--delivery-lease', '2500ms', '--delivery-poll-interval', '200ms'];

/**
 * SSRF: webhook URLs that point at loopback, private, link-local and metadata addresses are
 * refused when created (IP literals, in every spelling), refused at delivery time (literals
 * saved while private targets were allowed, and names that resolve to such addresses, checked
 * after resolution), and a redirect is never followed, even where private targets are allowed.
 * A receiver listening on the loopback address named by those URLs must get nothing.
 */
export function runSsrfScenario(options: SsrfOptions): Promise<ScenarioResult> {
  return withScenario({ name: 'ssrf', backend: options.backend, log: options.log }, async ({ backend, store, problems, log, facts, startServer, stopServers, startReceiver }) => {
    const target = await startReceiver({ keepBodies: false });
    const redirector = await startReceiver({ keepBodies: false });
    const encryptionKey = newEncryptionKey();
    log(`ssrf on ${options.backend}`);
    // Two projects, so that the redirect phase's server (which allows private targets) does
    // not deliver the first phase's webhooks.
    const form = await createForm(store);
    const redirectForm = await createForm(store);
    const webhookFor = (owner: FormFixture, url: string, allowPrivateTargets: boolean) => createWebhook(store, owner, { url, encryptionKey, dataDir: backend.dataDir, allowPrivateTargets });
    const webhook = (url: string, allowPrivateTargets: boolean) => webhookFor(form, url, allowPrivateTargets);

    // 1. Creation: IP literals are refused as long as private targets are not allowed.
    let refusedAtCreation = 0;
    for (const url of literalTargets) {
      const outcome = await webhook(url, false).then(
        () => 'created',
        (error: unknown) => ((error as { code?: string }).code === 'validation_failed' ? 'refused' : `failed: ${(error as Error).message}`),
      );
      if (outcome === 'refused') refusedAtCreation += 1;
      else problems.add(`creating a webhook for ${url} was not refused (${outcome})`);
    }
    facts['literalsRefusedAtCreation'] = refusedAtCreation;
    log(`  creation: ${refusedAtCreation} of ${literalTargets.length} private IP literals refused`);

    // 2. Delivery time, on a server that does not allow private targets.
    const table = resolverTable(target.port);
    const guardedTargets = new Map<string, string>();
    for (const url of [`http://127.0.0.1:${target.port}/hook`, `http://[::ffff:7f00:1]:${target.port}/hook`, 'http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/hook']) {
      guardedTargets.set((await webhook(url, true)).id, `${url} (saved while private targets were allowed)`);
    }
    guardedTargets.set((await webhook(`http://localhost:${target.port}/hook`, false)).id, `http://localhost:${target.port}/hook`);
    for (const [name, entry] of Object.entries(table)) guardedTargets.set((await webhook(entry.url, false)).id, `${entry.url} (${name} → ${entry.addresses.join(', ')})`);
    const preload = join(backend.dataDir, 'fake-dns.mjs');
    await writeFile(preload, fakeResolverSource);
    // DNS rebinding: a name that answers a public address, then the loopback address, in turn.
    // Checking one answer and connecting with another would reach the loopback receiver.
    const rebinding = { 'rebind.ssrf.test': [['93.184.215.14'], ['127.0.0.1']] };
    const rebindingWebhook = (await webhook(`http://rebind.ssrf.test:${target.port}/hook`, false)).id;
    const guarded = await startServer({
      args: deliveryFlags,
      env: {
        SVC_ENCRYPTION_KEY: encryptionKey,
        SVC_RELIABILITY_FAKE_DNS: JSON.stringify(Object.fromEntries(Object.entries(table).map(([name, entry]) => [name, entry.addresses]))),
        SVC_RELIABILITY_REBINDING_DNS: JSON.stringify(rebinding),
      },
      nodeArgs: ['--import', pathToFileURL(preload).href],
    });
    await submit(guarded, form);
    const refusedAtDelivery = await expectRefused(store, guardedTargets, options.waitMs, problems);
    facts['refusedAtDelivery'] = refusedAtDelivery;
    facts['rebindingAttempts'] = await expectNoSuccess(store, rebindingWebhook, options.waitMs, problems);
    log(`  delivery: ${refusedAtDelivery} of ${guardedTargets.size} webhooks to private targets refused after resolution`);
    await stopServers();

    // 3. Redirects are not followed, even by a server that allows private targets.
    redirector.respond(() => ({ status: 302, headers: { location: `${target.url}/hook` } }));
    const metadataRedirector = await startReceiver({ keepBodies: false });
    metadataRedirector.respond(() => ({ status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' } }));
    const redirects = new Map<string, string>([
      [(await webhookFor(redirectForm, `${redirector.url}/hook`, true)).id, `${redirector.url} → 302 to the loopback receiver`],
      [(await webhookFor(redirectForm, `${metadataRedirector.url}/hook`, true)).id, `${metadataRedirector.url} → 307 to the metadata address`],
    ]);
    const lenient = await startServer({ args: [...deliveryFlags, '--allow-private-targets'], env: { SVC_ENCRYPTION_KEY: encryptionKey } });
    await submit(lenient, redirectForm);
    const notFollowed = await expectRedirectsNotFollowed(store, redirects, options.waitMs, problems);
    facts['redirectsNotFollowed'] = notFollowed;
    facts['redirectAttempts'] = redirector.requests.length + metadataRedirector.requests.length;
    log(`  redirects: ${notFollowed} of ${redirects.size} not followed (${facts['redirectAttempts']} attempts answered with a redirect)`);
    await stopServers();
    facts['requestsThatReachedTheLoopbackReceiver'] = target.requests.length;
    if (target.requests.length > 0) problems.add(`SSRF: the loopback receiver got ${target.requests.length} request(s): ${target.requests.map((arrival) => arrival.headers.host).join(', ')}`);
  });
}

async function submit(server: SvcProcess, form: FormFixture): Promise<void> {
  const response = await fetch(`${server.url}/api/f/${form.endpointId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"probe":true}' });
  if (response.status !== 200) throw new Error(`the probe submission answered ${response.status}`);
}

interface AttemptRow {
  readonly webhook: string;
  readonly status_code: number | null;
  readonly error: string | null;
}

/**
 * Waits until every listed webhook's delivery is final (its retries, a short schedule here,
 * are used up), so no attempt is left for a later server; returns the attempts.
 */
async function attemptsOf(store: Store, webhooks: ReadonlyMap<string, string>, waitMs: number): Promise<AttemptRow[]> {
  const ids = [...webhooks.keys()];
  const deadline = Date.now() + waitMs;
  for (;;) {
    const deliveries = await store.db.selectFrom('deliveries').select(['webhook_id', 'status']).where('webhook_id', 'in', ids).execute();
    const final = new Set(deliveries.filter((row) => row.status !== 'pending').map((row) => row.webhook_id));
    if (ids.every((id) => final.has(id)) || Date.now() > deadline) break;
    await delay(100);
  }
  return store.db
    .selectFrom('delivery_attempts')
    .innerJoin('deliveries', 'deliveries.id', 'delivery_attempts.delivery_id')
    .select(['deliveries.webhook_id as webhook', 'delivery_attempts.status_code', 'delivery_attempts.error'])
    .where('deliveries.webhook_id', 'in', ids)
    .execute();
}

/**
 * How many of `webhooks` had every attempt `as` expected, once their deliveries are final;
 * each other one is a problem: no attempt at all, or `otherwise` with its attempts.
 */
async function countAttemptedAs(store: Store, webhooks: ReadonlyMap<string, string>, waitMs: number, problems: ProblemList, as: (row: AttemptRow) => boolean, otherwise: (description: string) => string): Promise<number> {
  const rows = await attemptsOf(store, webhooks, waitMs);
  let count = 0;
  for (const [id, description] of webhooks) {
    const attempts = rows.filter((row) => row.webhook === id);
    if (attempts.length === 0) problems.add(`no delivery attempt was recorded for ${description} within ${waitMs} ms`);
    else if (attempts.every(as)) count += 1;
    else problems.add(`${otherwise(description)}: ${JSON.stringify(attempts)}`);
  }
  return count;
}

function expectRefused(store: Store, webhooks: ReadonlyMap<string, string>, waitMs: number, problems: ProblemList): Promise<number> {
  const refused = (row: AttemptRow) => row.status_code === null && /^refused: .*private targets are not allowed/.test(row.error ?? '');
  return countAttemptedAs(store, webhooks, waitMs, problems, refused, (description) => `SSRF: ${description} was not refused`);
}

async function expectRedirectsNotFollowed(store: Store, webhooks: ReadonlyMap<string, string>, waitMs: number, problems: ProblemList): Promise<number> {
  const notFollowed = (row: AttemptRow) => row.status_code !== null && row.status_code >= 300 && row.status_code < 400 && /redirects are not followed/.test(row.error ?? '');
  const count = await countAttemptedAs(store, webhooks, waitMs, problems, notFollowed, (description) => description);
  const succeeded = await store.db.selectFrom('deliveries').select('id').where('webhook_id', 'in', [...webhooks.keys()]).where('status', '=', 'succeeded').execute();
  if (succeeded.length > 0) problems.add(`${succeeded.length} redirected deliveries were marked succeeded`);
  return count;
}

/** The rebinding webhook's deliveries: attempted (refused, or failed on the public address), never succeeded. */
async function expectNoSuccess(store: Store, webhookId: string, waitMs: number, problems: ProblemList): Promise<number> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = await store.db
      .selectFrom('deliveries')
      .select(['status', 'attempts'])
      .where('webhook_id', '=', webhookId)
      .execute();
    if (rows.some((row) => row.status === 'succeeded')) {
      problems.add('SSRF: a delivery to the rebinding name succeeded');
      return rows.reduce((sum, row) => sum + row.attempts, 0);
    }
    const attempts = rows.reduce((sum, row) => sum + row.attempts, 0);
    if ((rows.length > 0 && rows.every((row) => row.status === 'failed')) || Date.now() > deadline) {
      if (attempts < 2) problems.add(`the rebinding name was attempted ${attempts} time(s); at least 2 lookups were needed to see both answers`);
      return attempts;
    }
    await delay(200);
  }
}
