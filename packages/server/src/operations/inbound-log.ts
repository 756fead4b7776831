import type { BuildsListEntry, EnvironmentName, InboundDeliveryInfo } from '@svc/protocol/api';
import type { GitHost } from '../builds/push-headers.js';
import { newId } from '../lib/ids.js';
import { listBuilds } from '../store/queries/builds.js';
import { listInboundDeliveries, recordInboundDelivery, type InboundBounds } from '../store/queries/inbound-deliveries.js';
import type { InboundDeliveryRow, InboundVerdict } from '../store/schema.js';
import { toBuildInfo } from './builds.js';
import type { OperationContext, Principal } from './context.js';
import { isoTime } from '../lib/iso-time.js';
import type { ProjectInput } from './project-config.js';
import { projectInScope } from './scope.js';

/**
 * The inbound log (docs/hosting.md, "When a push did not deploy"): every push webhook and
 * deploy hook call that names a project, kept with its verdict, and `svc builds list --all`,
 * which shows the builds together with the deliveries that built nothing.
 */

/** Per project: the last 200 accepted or ignored deliveries, and apart from them the last 50 refused. */
export const inboundBounds: InboundBounds = { kept: 200, refused: 50 };

/**
 * What a push webhook says it is, as the inbound log keeps it: the host, the event, and,
 * from a verified body only, the ref and commit. Never the body itself, nor any signature
 * or token header.
 */
export interface PushSummary {
  readonly host: GitHost | null;
  readonly event: string | null;
  readonly ref: string | null;
  readonly commit: string | null;
}

/** Where a delivery came from: a push webhook (with what it said it was) or a deploy hook. */
export type InboundSource = { readonly type: 'push'; readonly summary: PushSummary } | { readonly type: 'hook'; readonly hook: { readonly id: string; readonly name: string } };

export interface InboundRecord {
  readonly projectId: string;
  readonly source: InboundSource;
  readonly environment: string | null;
  readonly verdict: InboundVerdict;
  readonly reason: string | null;
  readonly buildId: string | null;
}

/** Keeps one delivery's verdict, dropping the project's oldest of its class past the bound. */
export async function recordInbound(context: OperationContext, record: InboundRecord): Promise<void> {
  const now = context.now();
  const { source } = record;
  const row: InboundDeliveryRow = {
    id: newId('inb', now),
    project_id: record.projectId,
    received_at: now,
    source: source.type,
    host: source.type === 'push' ? source.summary.host : null,
    hook_id: source.type === 'hook' ? source.hook.id : null,
    hook_name: source.type === 'hook' ? source.hook.name : null,
    event: source.type === 'push' ? source.summary.event : null,
    ref: source.type === 'push' ? source.summary.ref : null,
    git_commit: source.type === 'push' ? source.summary.commit : null,
    environment: record.environment,
    verdict: record.verdict,
    reason: record.reason,
    build_id: record.buildId,
  };
  await context.store.transaction((trx) => recordInboundDelivery(trx, row, inboundBounds));
}

export function toInboundDeliveryInfo(row: InboundDeliveryRow): InboundDeliveryInfo {
  return {
    id: row.id,
    receivedAt: isoTime(row.received_at),
    source: row.source,
    host: row.host as InboundDeliveryInfo['host'],
    hook: row.hook_id === null ? null : { id: row.hook_id, name: row.hook_name ?? '' },
    event: row.event,
    ref: row.ref,
    commit: row.git_commit,
    environment: row.environment as EnvironmentName | null,
    verdict: row.verdict,
    reason: row.reason,
    build: row.build_id,
  };
}

/**
 * `svc builds list --all`: the builds and the deliveries that built nothing (ignored or
 * refused), newest first, `limit` in all. An accepted delivery is its build's row. With an
 * environment: its builds, and the deliveries of it or of none (a push to a branch no
 * environment has, a tag, a refused call), since any of those may be the push that did
 * not deploy it.
 */
export async function listBuildsAndDeliveries(
  context: OperationContext,
  principal: Principal,
  input: ProjectInput & { environment?: EnvironmentName | undefined; limit?: number | undefined },
): Promise<{ entries: BuildsListEntry[] }> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const limit = input.limit ?? 20;
  const builds = await listBuilds(context.store.db, project.id, input.environment, limit);
  const deliveries = await listInboundDeliveries(context.store.db, project.id, { environment: input.environment, verdicts: ['ignored', 'refused'], limit });
  const entries = [
    ...builds.map((row) => ({ at: row.created_at, id: row.id, entry: { kind: 'build' as const, build: toBuildInfo(row) } })),
    ...deliveries.map((row) => ({ at: row.received_at, id: row.id, entry: { kind: 'delivery' as const, delivery: toInboundDeliveryInfo(row) } })),
  ];
  entries.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return { entries: entries.slice(0, limit).map((item) => item.entry) };
}

/** The deploys page: the deliveries that built nothing (ignored or refused), newest first. */
export async function listDeliveriesThatBuiltNothing(context: OperationContext, principal: Principal, input: ProjectInput & { limit: number }): Promise<InboundDeliveryInfo[]> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const rows = await listInboundDeliveries(context.store.db, project.id, { verdicts: ['ignored', 'refused'], limit: input.limit });
  return rows.map(toInboundDeliveryInfo);
}
