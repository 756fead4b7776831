import { auditActions } from '@svc/protocol';
import type { AuditEntry } from '@svc/protocol/api';
import type { AuditLogPage } from '../../operations/audit-log.js';
import { Badge, Breakable, Cell, DataTable, Empty, Notice, Pager, Time } from './components.js';
import { Shell, type PageFrame } from './layout.js';

export interface AuditFilters {
  readonly project: string;
  readonly action: string;
  readonly cursor: string | undefined;
}

export function auditPath(workspace: string): string {
  return `/settings/${encodeURIComponent(workspace)}/audit`;
}

/** `/settings/{workspace}/audit`: who changed what in the workspace, newest first (docs/settings.md). */
export function AuditPage(props: { frame: PageFrame; workspace: string; projects: readonly string[]; log: AuditLogPage; filters: AuditFilters; error?: string }) {
  const { log, filters } = props;
  const path = auditPath(props.workspace);
  const query = (cursor: string | null) => {
    const params = new URLSearchParams();
    if (filters.project) params.set('project', filters.project);
    if (filters.action) params.set('action', filters.action);
    if (cursor) params.set('cursor', cursor);
    const text = params.toString();
    return text ? `${path}?${text}` : path;
  };
  const filtered = filters.project !== '' || filters.action !== '';
  return (
    <Shell frame={props.frame} title={`Audit log · ${props.workspace}`} crumbs={[{ label: 'Projects', href: '/settings' }, { label: props.workspace }, { label: 'Audit log' }]}>
      <div class="page-head">
        <div>
          <h1>Audit log</h1>
          <p class="lead">
            Who changed what in <strong>{props.workspace}</strong>, newest first: one entry per change made here, with the CLI or by an inbound webhook. Entries name what changed by its id (a member also by their email, a token by its name), never its contents.
          </p>
        </div>
      </div>
      {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
      <form method="get" action={path} class="filters" aria-label="Filter the audit log">
        <div class="field">
          <label for="project">Project</label>
          <select id="project" name="project">
            <option value="">Any project</option>
            {props.projects.map((project) => (
              <option key={project} value={project} selected={filters.project === project}>
                {project}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="action">Action</label>
          <select id="action" name="action">
            <option value="">Any action</option>
            {auditActions.map((action) => (
              <option key={action} value={action} selected={filters.action === action}>
                {action}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Filter</button>
      </form>
      <section class="card" aria-labelledby="entries-title">
        <h2 id="entries-title" class="visually-hidden">
          Entries
        </h2>
        {log.entries.length === 0 ? (
          <Empty title={filtered ? 'No entries match' : 'No entries yet'}>
            <p>{filtered ? 'Try another filter.' : 'Changes to this workspace appear here as they are made.'}</p>
          </Empty>
        ) : (
          <DataTable headers={['Action', 'Who', 'When', 'Project', 'Object', 'From']}>
            {log.entries.map((entry) => (
              <AuditRow key={entry.id} entry={entry} />
            ))}
          </DataTable>
        )}
      </section>
      <Pager label="Audit log pages" first={filters.cursor ? query(null) : null} next={log.nextCursor ? query(log.nextCursor) : null} />
    </Shell>
  );
}

/** Whoever acted is named with their kind and id beside the name: a member may take a token's name. */
const actorKinds: Record<AuditEntry['actor']['type'], string> = { token: 'Token', member: 'Member', system: 'System' };

/** What a change of one value changed, by its action (docs/privacy.md). */
function changeLabel(action: string): string {
  if (action === 'member.role_changed') return 'role';
  if (action === 'member.renamed') return 'name';
  return 'from';
}

function AuditRow(props: { entry: AuditEntry }) {
  const { entry } = props;
  return (
    <tr>
      <Cell>
        <strong class="mono small">{entry.action}</strong>
      </Cell>
      <Cell label="Who" class="url">
        <Breakable text={entry.actor.name} /> <Badge tone="neutral">{actorKinds[entry.actor.type]}</Badge>
        <div class="muted small">
          <span class="mono">
            <Breakable text={entry.actor.id} />
          </span>
        </div>
      </Cell>
      <Cell label="When" class="small">
        <Time at={entry.at} />
      </Cell>
      <Cell label="Project">{entry.project === null ? <span class="muted">—</span> : <Breakable text={entry.project} />}</Cell>
      <Cell label="Object" class="small url">
        {entry.object === null ? (
          <span class="muted">—</span>
        ) : (
          <>
            {entry.object.type} <span class="mono">
              <Breakable text={entry.object.id} />
            </span>
            {entry.object.name === undefined ? null : (
              <div class="breakable">
                <Breakable text={entry.object.name} />
              </div>
            )}
          </>
        )}
        {entry.change === undefined ? null : (
          <div>
            {changeLabel(entry.action)} <Breakable text={entry.change.from ?? '—'} /> → <Breakable text={entry.change.to ?? '—'} />
          </div>
        )}
      </Cell>
      <Cell label="From" class="small mono">
        {entry.ip === null ? <span class="muted">—</span> : <Breakable text={entry.ip} />}
      </Cell>
    </tr>
  );
}
