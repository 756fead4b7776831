import fc from 'fast-check';
import { createForm, type RawOutcome, runPool, sendRaw } from '@svc/testkit';
import type { ScenarioResult } from '../harness/report.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';
import { fuzzCase, fuzzKinds, fuzzServerFlags, type FuzzCase, type FuzzKind } from './bad-input-cases.js';

export interface BadInputOptions extends ScenarioOptions {
  /** Generated requests (the issue asks for at least 10,000). */
  readonly requests: number;
  readonly concurrency: number;
  readonly seed?: number;
}

/** The answers docs/form-endpoint.md documents, by status: the `error` codes each may carry. */
type Documented = ReadonlySet<string> | 'accepted' | 'validation' | 'no-body';
const documented: ReadonlyMap<number, Documented> = new Map<number, Documented>([
  [200, 'accepted'],
  [204, 'no-body'],
  [400, new Set(['invalid_body', 'invalid_idempotency_key'])],
  [404, new Set(['not_found'])],
  [405, new Set(['method_not_allowed'])],
  [413, new Set(['payload_too_large'])],
  [415, new Set(['unsupported_media_type'])],
  [422, 'validation'],
  [429, new Set(['rate_limited'])],
]);

/**
 * Bad input: `requests` generated malformed requests of every kind (fast-check, seeded), sent
 * as raw bytes over fresh connections. Every answer must be a documented 4xx (with its
 * documented body) or a 200, never a 500 or a dropped connection; the server must stay up;
 * exactly the submissions answered 200 are stored, and stored file names are clean.
 */
export function runBadInputScenario(options: BadInputOptions): Promise<ScenarioResult> {
  const seed = options.seed ?? Date.now() % 1_000_000;
  return withScenario({ name: 'bad-input', backend: options.backend, log: options.log, problemGroups: 30 }, async ({ store, problems, log, startServer, stopServers }) => {
    log(`bad input on ${options.backend}: ${options.requests} generated requests, ${options.concurrency} at a time, seed ${seed}`);
    const form = await createForm(store);
    const server = await startServer({ args: fuzzServerFlags, logLevel: 'error' });
    const port = Number(new URL(server.url).port);
    const cases = fc.sample(fuzzCase(form.endpointId), { numRuns: options.requests, seed });
    const byKind = new Map<FuzzKind, Map<string, number>>(fuzzKinds.map((kind) => [kind, new Map()]));
    const accepted = new Set<string>();
    await runPool(cases.length, options.concurrency, async (index) => {
      const fuzz = cases[index]!;
      const outcome = await sendRaw(port, { head: fuzz.head, body: fuzz.body });
      const verdict = judge(fuzz, outcome);
      const statuses = byKind.get(fuzz.kind)!;
      statuses.set(verdict.summary, (statuses.get(verdict.summary) ?? 0) + 1);
      if (verdict.problem) problems.add(`${verdict.problem} — ${fuzz.kind}: ${fuzz.label}`, `${fuzz.kind}|${verdict.group ?? verdict.problem}`);
      if (verdict.acceptedId) accepted.add(verdict.acceptedId);
    });

    for (const [kind, statuses] of byKind) {
      const total = [...statuses.values()].reduce((sum, count) => sum + count, 0);
      log(`  ${kind.padEnd(20)} ${String(total).padStart(5)}  ${[...statuses.entries()].sort().map(([status, count]) => `${status}×${count}`).join(' ')}`);
    }
    if (!server.alive()) problems.add(`CRASH: the server exited during the run\n${server.stderr().slice(-2_000)}`);
    const health = await fetch(`${server.url}/healthz`).then((response) => response.status, () => 0);
    if (health !== 200) problems.add(`the server does not answer /healthz after the run (${health})`);

    const rows = await store.db.selectFrom('submissions').select(['id', 'files', 'fields', 'idempotency_key']).where('form_id', '=', form.formId).execute();
    const stored = new Set(rows.map((row) => row.id));
    for (const id of accepted) if (!stored.has(id)) problems.add(`LOST: ${id} was answered 200 but is not stored`, 'lost');
    for (const row of rows) {
      if (!accepted.has(row.id)) problems.add(`${row.id} is stored but no request was answered 200 with it: key ${JSON.stringify(row.idempotency_key)}, fields ${row.fields.slice(0, 120)}`, 'stored-unanswered');
    }
    let files = 0;
    for (const row of rows) {
      for (const file of JSON.parse(row.files) as { name: string }[]) {
        files += 1;
        // eslint-disable-next-line no-control-regex -- control characters are what is being checked for
        if (/[/\\\u0000-\u001f\u007f]/.test(file.name) || file.name === '.' || file.name === '..' || file.name.length > 255) problems.add(`stored file name not cleaned: ${JSON.stringify(file.name)}`);
      }
    }
    await stopServers();
    return { seed, requests: cases.length, accepted: accepted.size, stored: rows.length, storedFiles: files };
  });
}

interface Verdict {
  readonly summary: string;
  readonly problem?: string;
  /** Problems of one group are reported once, with a count. */
  readonly group?: string;
  readonly acceptedId?: string;
}

function judge(fuzz: FuzzCase, outcome: RawOutcome): Verdict {
  if (outcome.kind === 'timeout') return { summary: 'timeout', problem: 'NO ANSWER (timed out)' };
  if (outcome.kind === 'closed') return { summary: 'closed', problem: `NO ANSWER (connection closed after ${outcome.received} bytes${outcome.error ? `: ${outcome.error}` : ''})`, group: 'closed' };
  const { status, headers } = outcome;
  const summary = String(status);
  if (status >= 500) return { summary, problem: `${status} ${outcome.body.toString('utf8').slice(0, 200)}`, group: String(status) };
  if (headers['x-injected']) return { summary, problem: 'an injected header came back in the answer' };
  const expected = documented.get(status);
  if (expected === undefined) return { summary, problem: `undocumented status ${status} ${outcome.body.toString('utf8').slice(0, 200)}`, group: `undocumented ${status}` };
  const isHead = fuzz.head.subarray(0, 5).toString('latin1') === 'HEAD ';
  if (expected === 'no-body' || isHead) return { summary };
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(outcome.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return { summary, problem: `${status} with a body that is not JSON: ${JSON.stringify(outcome.body.toString('utf8').slice(0, 200))}` };
  }
  if (expected === 'accepted') {
    if (body['ok'] !== true || typeof body['id'] !== 'string' || !body['id'].startsWith('sub_')) return { summary, problem: `200 with an unexpected body ${JSON.stringify(body)}` };
    const fresh = headers['idempotent-replayed'] ? {} : { acceptedId: body['id'] };
    if (!fuzz.mayBeAccepted) return { summary, problem: `accepted (200) although malformed`, ...fresh };
    return { summary, ...fresh };
  }
  if (body['ok'] !== false) return { summary, problem: `${status} without "ok": false: ${JSON.stringify(body).slice(0, 200)}`, group: `no ok:false ${status} ${String(body['code'] ?? body['message'])}` };
  if (expected === 'validation') {
    const errors = body['errors'];
    return errors !== null && typeof errors === 'object' && Object.keys(errors).length > 0 ? { summary } : { summary, problem: `422 without errors: ${JSON.stringify(body)}` };
  }
  const code = body['error'];
  return typeof code === 'string' && expected.has(code) ? { summary: `${status} ${code}` } : { summary, problem: `${status} with error ${JSON.stringify(code)}, not a documented code for it` };
}
