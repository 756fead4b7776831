import { eventTypes } from '@svc/protocol';
import type { DeliveryLog, LoggedDelivery } from '../../operations/delivery-log.js';
import { Badge, Breakable, Csrf, Empty, Notice, Pager, PostButton, Time } from './components.js';
import { ProjectNav, Shell } from './layout.js';
import { projectCrumbs, projectPath, type ProjectPageBase } from './overview-page.js';
import { answerText, DeliveryStatusBadge } from './webhook-parts.js';

export interface DeliveryFilters {
  readonly status: string;
  readonly eventType: string;
  readonly cursor: string | undefined;
}

export function DeliveryLogPage(props: ProjectPageBase & { log: DeliveryLog; filters: DeliveryFilters; notice?: string; error?: string }) {
  const { log, filters } = props;
  const base = projectPath(props.workspace, props.project);
  const path = `${base}/webhooks/${encodeURIComponent(log.webhook.id)}`;
  const query = (cursor: string | null) => {
    const params = new URLSearchParams();
    if (filters.status) params.set('status', filters.status);
    if (filters.eventType) params.set('event', filters.eventType);
    if (cursor) params.set('cursor', cursor);
    const text = params.toString();
    return text ? `${path}?${text}` : path;
  };
  return (
    <Shell frame={props.frame} title={`Deliveries · ${log.webhook.url}`} crumbs={projectCrumbs(props.workspace, props.project, 'Delivery log')} nav={<ProjectNav base={base} current="webhooks" forms={props.forms} />}>
      <div class="page-head">
        <div>
          <h1>Delivery log</h1>
          <p class="lead url">
            <Breakable text={log.webhook.url} /> {log.webhook.enabled ? <Badge tone="ok">Enabled</Badge> : <Badge tone="warn">Disabled</Badge>}
          </p>
        </div>
        <a class="button" href={`${base}/webhooks`}>
          All webhooks
        </a>
      </div>
      {props.notice ? <Notice tone="ok">{props.notice}</Notice> : null}
      {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
      <form method="get" action={path} class="filters" aria-label="Filter deliveries">
        <div class="field">
          <label for="status">Status</label>
          <select id="status" name="status">
            {[
              ['', 'Any status'],
              ['pending', 'Pending'],
              ['succeeded', 'Succeeded'],
              ['failed', 'Failed'],
            ].map(([value, label]) => (
              <option key={value} value={value} selected={filters.status === value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="event">Event type</label>
          <select id="event" name="event">
            <option value="">Any event</option>
            {eventTypes.map((type) => (
              <option key={type} value={type} selected={filters.eventType === type}>
                {type}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Filter</button>
      </form>
      <div data-live={filters.cursor === undefined ? '' : undefined}>
        {log.deliveries.length === 0 ? (
          <div class="card">
            <Empty title={filters.status || filters.eventType ? 'No deliveries match' : 'No deliveries yet'}>
              <p>{filters.status || filters.eventType ? 'Try another filter.' : 'Events sent to this webhook appear here. Send a test event from the webhooks page, or run `svc webhooks test`.'}</p>
            </Empty>
          </div>
        ) : (
          log.deliveries.map((entry) => <DeliveryItem key={entry.delivery.id} entry={entry} resendAction={`${base}/deliveries/${encodeURIComponent(entry.delivery.id)}/resend`} csrf={props.frame.csrfToken} />)
        )}
      </div>
      <Pager label="Deliveries pages" first={filters.cursor ? query(null) : null} next={log.nextCursor ? query(log.nextCursor) : null} />
      <section class="card" aria-labelledby="replay-title">
        <h2 id="replay-title">Replay</h2>
        <p class="muted">After an outage of the receiver: queue its failed deliveries of a period again, each with a fresh retry budget, at most 50 a second.</p>
        <form method="post" action={`${path}/replay`} class="filters">
          <Csrf token={props.frame.csrfToken} />
          <div class="field">
            <label for="replay-period">Created in the last</label>
            <select id="replay-period" name="period">
              {replayPeriods.map(([value, label]) => (
                <option key={value} value={value} selected={value === '24h'}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="replay-status">Deliveries</label>
            <select id="replay-status" name="status">
              <option value="failed">Failed only</option>
              <option value="all">Failed and succeeded</option>
            </select>
          </div>
          <button type="submit">Replay deliveries</button>
        </form>
      </section>
    </Shell>
  );
}

/** The periods a replay can cover from the page (the CLI takes any range). */
export const replayPeriods: readonly (readonly [string, string])[] = [
  ['1h', 'hour'],
  ['6h', '6 hours'],
  ['24h', '24 hours'],
  ['3d', '3 days'],
  ['7d', '7 days'],
];

function DeliveryItem(props: { entry: LoggedDelivery; resendAction: string; csrf: string | undefined }) {
  const { delivery, attempts, requestBody } = props.entry;
  return (
    <details class="item">
      <summary>
        <span class="summary-main">
          <DeliveryStatusBadge status={delivery.status} />
          <strong class="mono small">{delivery.eventType}</strong>
          <Time at={delivery.createdAt} />
          <span class="muted small">
            {delivery.attemptCount} {delivery.attemptCount === 1 ? 'attempt' : 'attempts'}
            {delivery.attemptCount > 0 ? ` · last: ${answerText(delivery.lastStatusCode, delivery.lastError)}` : ''}
          </span>
        </span>
        {delivery.status === 'pending' ? (
          <span class="muted small">
            Next attempt <Time at={delivery.nextAttemptAt} />
          </span>
        ) : null}
      </summary>
      <div class="item-body">
        {delivery.status === 'pending' ? null : (
          <div class="action-bar start">
            <PostButton action={props.resendAction} csrf={props.csrf} label="Resend" />
          </div>
        )}
        <dl class="fields">
          <dt>Delivery</dt>
          <dd class="mono">{delivery.id}</dd>
          <dt>Event</dt>
          <dd class="mono">{delivery.eventId}</dd>
        </dl>
        <h3>Request body</h3>
        <pre class="block">{requestBody === null ? 'Not kept.' : prettyJson(requestBody)}</pre>
        <h3>Attempts</h3>
        {attempts.length === 0 ? <p class="muted">No attempt yet.</p> : null}
        {attempts.map((attempt) => (
          <div class="attempt" key={attempt.attempt}>
            <p>
              <strong>Attempt {attempt.attempt}</strong> · <Time at={attempt.startedAt} /> · {attempt.durationMs} ms · {answerText(attempt.statusCode, attempt.error)}
            </p>
            {attempt.requestHeaders ? (
              <>
                <h3 class="small muted">Request headers</h3>
                <pre class="block">{Object.entries(attempt.requestHeaders).map(([name, value]) => `${name}: ${value}`).join('\n')}</pre>
              </>
            ) : null}
            <h3 class="small muted">Response body</h3>
            <pre class="block">{attempt.responseBody === null || attempt.responseBody === '' ? '(empty)' : attempt.responseBody}</pre>
          </div>
        ))}
      </div>
    </details>
  );
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
