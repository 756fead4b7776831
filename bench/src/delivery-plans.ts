import { CompiledQuery, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import { type BackendName, createBackend, createForm, createWebhook, newEncryptionKey } from '@svc/testkit';
import { claimWebhookDeliveries, clearLapsedLeases, newId, nextLeaseEnd, readyWebhooks, type Store } from '@svc/server/testing';

/** One statement of the claim path and how the backend runs it. */
export interface StatementPlan {
  readonly step: string;
  readonly sql: string;
  readonly plan: string[];
  /** Lines that show rows walked and not taken: a scan of deliveries, or rows a filter removed. */
  readonly walks: string[];
}

export interface DeliveryPlanFigures {
  readonly target: BackendName;
  readonly statements: StatementPlan[];
}

/** Records the operation node of every query run through it, to compile and explain them afterwards. */
class Capture implements KyselyPlugin {
  readonly queries: { node: RootOperationNode; queryId: PluginTransformQueryArgs['queryId'] }[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.queries.push({ node: args.node, queryId: args.queryId });
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

const now = Date.now();
const row = (id: string, eventId: string, webhookId: string, state: 'ready' | 'leased' | 'lapsed' | 'retry' | 'done') => ({
  id,
  event_id: eventId,
  webhook_id: webhookId,
  status: state === 'done' ? ('succeeded' as const) : ('pending' as const),
  attempts: state === 'retry' || state === 'done' ? 1 : 0,
  retry_base: 0,
  next_attempt_at: state === 'retry' ? now + 60_000 : now - 1_000,
  lease_owner: state === 'leased' || state === 'lapsed' ? 'another-worker' : null,
  lease_expires_at: state === 'leased' ? now + 60_000 : state === 'lapsed' ? now - 500 : null,
  last_status_code: null,
  last_error: null,
  created_at: now,
  updated_at: now,
  completed_at: state === 'done' ? now : null,
});

/**
 * A store as a busy one looks to the worker: one webhook with 30,000 finished deliveries, a
 * backlog of 20,000 and 500 held by another worker; 19 more webhooks of the project with a
 * few due, retries later, and lapsed leases.
 */
async function fill(store: Store, dataDir: string): Promise<{ big: string; small: string }> {
  const form = await createForm(store);
  const encryptionKey = newEncryptionKey();
  const webhooks: string[] = [];
  for (let index = 0; index < 20; index += 1) {
    webhooks.push((await createWebhook(store, form, { url: `http://127.0.0.1:9/hook-${index}`, encryptionKey, dataDir, allowPrivateTargets: true })).id);
  }
  const states: [string, 'ready' | 'leased' | 'lapsed' | 'retry' | 'done', number][] = [[webhooks[0]!, 'done', 30_000], [webhooks[0]!, 'leased', 500], [webhooks[0]!, 'ready', 20_000]];
  for (const webhookId of webhooks.slice(1)) states.push([webhookId, 'done', 200], [webhookId, 'ready', 40], [webhookId, 'retry', 10], [webhookId, 'lapsed', 2]);
  for (const [webhookId, state, count] of states) {
    for (let start = 0; start < count; start += 500) {
      const ids = Array.from({ length: Math.min(500, count - start) }, () => ({ event: newId('evt', now), delivery: newId('dlv', now) }));
      await store.db.insertInto('events').values(ids.map((id) => ({ id: id.event, project_id: form.projectId, type: 'form.submission.created', payload: '{}', created_at: now, dispatched_at: now }))).execute();
      await store.db.insertInto('deliveries').values(ids.map((id) => row(id.delivery, id.event, webhookId, state))).execute();
    }
  }
  // PostgreSQL's statistics, as autovacuum keeps them; SQLite never gathers any (svc does not run ANALYZE).
  if (store.capabilities.dialect === 'postgres') await store.db.executeQuery(CompiledQuery.raw('analyze'));
  return { big: webhooks[0]!, small: webhooks[1]! };
}

/**
 * The SQL plans of the worker's claim path on one backend (issue 28): each statement run for
 * real against a store like a busy one (in a transaction rolled back afterwards), then
 * explained: EXPLAIN QUERY PLAN on SQLite, EXPLAIN ANALYZE on PostgreSQL (which counts the
 * rows a filter removed). A statement that walks rows it does not take is listed in `walks`.
 */
export async function explainClaimPath(kind: BackendName): Promise<DeliveryPlanFigures> {
  const backend = await createBackend(kind);
  const store = await backend.openStore();
  try {
    const { big, small } = await fill(store, backend.dataDir);
    const capture = new Capture();
    const db = store.db.withPlugin(capture);
    const steps: { step: string; from: number }[] = [];
    const mark = (step: string): void => void steps.push({ step, from: capture.queries.length });
    const lease = { owner: 'bench', expiresAt: now + 60_000 };
    const explained: StatementPlan[] = [];
    await store.db
      .transaction()
      .execute(async (trx) => {
        const traced = trx.withPlugin(capture);
        mark('lapsed leases made ready');
        await clearLapsedLeases(traced, store.capabilities, now);
        mark('webhooks with ready deliveries, and their next retry');
        await readyWebhooks(traced);
        mark('the next lease end');
        await nextLeaseEnd(traced, now);
        mark('a claim of 32 from the webhook with the backlog');
        await claimWebhookDeliveries(traced, store.capabilities, { webhookId: big, limit: 32, now, lease });
        mark('a claim of 32 from a webhook with 40 due');
        await claimWebhookDeliveries(traced, store.capabilities, { webhookId: small, limit: 32, now, lease });
        for (const [index, { step, from }] of steps.entries()) {
          for (const { node, queryId } of capture.queries.slice(from, steps[index + 1]?.from ?? capture.queries.length)) {
            const compiled = db.getExecutor().compileQuery(node, queryId);
            const prefix = kind === 'sqlite' ? 'explain query plan ' : 'explain (analyze, costs off, timing off, summary off) ';
            const result = await trx.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + compiled.sql, [...compiled.parameters]));
            const plan = result.rows.map((line) => String(line['detail'] ?? line['QUERY PLAN']));
            explained.push({ step, sql: compiled.sql, plan, walks: deliveryWalks(plan) });
          }
        }
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    return { target: kind, statements: explained };
  } finally {
    await store.close();
    await backend.cleanup();
  }
}

class RolledBack extends Error {}

/** The lines of a plan that walk deliveries: a full scan, or an index scan whose filter removed rows. */
function deliveryWalks(plan: readonly string[]): string[] {
  const walks: string[] = [];
  let node = '';
  for (const line of plan) {
    if (/Scan|SCAN|SEARCH/.test(line)) node = line;
    if (/^SCAN deliveries\b|Seq Scan on deliveries\b/.test(line.trim())) walks.push(line.trim());
    else if (/Rows Removed by Filter: [1-9]/.test(line) && / on deliveries\b/.test(node)) walks.push(`${node.trim()}: ${line.trim()}`);
  }
  return walks;
}
