import { Fragment } from 'preact';
import { formatDurationSeconds } from '@svc/protocol';
import type { PinpointsResponse, RequestCounts, RequestInfo, RequestSettings } from '@svc/protocol/api';
import { formatBytes } from '../../lib/format-bytes.js';
import { elementPlacement } from './element-placement.js';
import { Badge, Breakable, Csrf, Empty, Notice, Pager, PostButton, SaveSettingsButton, TextField, Time } from './components.js';
import { ProjectNav, Shell } from './layout.js';
import { projectCrumbs, projectPath, type ProjectPageBase } from './overview-page.js';

export type RequestTab = 'open' | 'resolved' | 'spam';

export interface RequestsPageProps extends ProjectPageBase {
  readonly status: RequestTab;
  readonly requests: readonly RequestInfo[];
  readonly counts: RequestCounts;
  readonly nextCursor: string | null;
  readonly cursor: string | undefined;
  readonly pinpoints: Omit<PinpointsResponse, 'ok'>;
  readonly settings: RequestSettings;
  readonly notice?: string;
  readonly error?: string;
  /** What was wrong with the settings form, shown beside it; the value typed is kept. */
  readonly settingsError?: { readonly message: string; readonly retention: string };
}

const tabLabels: Record<RequestTab, string> = { open: 'Open', resolved: 'Resolved', spam: 'Spam' };

/** The Pinpoints requests inbox (docs/pinpoints.md): status tabs, each request with its screenshot and thread. */
export function RequestsPage(props: RequestsPageProps) {
  const base = projectPath(props.workspace, props.project);
  const path = `${base}/requests`;
  const tabUrl = (status: RequestTab, cursor?: string | null) => {
    const params = new URLSearchParams();
    if (status !== 'open') params.set('status', status);
    if (cursor) params.set('cursor', cursor);
    const text = params.toString();
    return text ? `${path}?${text}` : path;
  };
  const on = (['production', 'staging', 'development'] as const).filter((environment) => props.pinpoints.enabled[environment]);
  return (
    <Shell frame={props.frame} title={`${props.project} · Requests`} crumbs={projectCrumbs(props.workspace, props.project, 'Requests')} nav={<ProjectNav base={base} current="requests" forms={props.forms} />}>
      <div class="page-head">
        <div>
          <h1>Requests</h1>
          <p class="lead">Feedback visitors sent with the Pinpoints widget, newest first</p>
        </div>
      </div>
      {props.notice ? <Notice tone="ok">{props.notice}</Notice> : null}
      {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
      <nav class="tabs" aria-label="Request status">
        {(['open', 'resolved', 'spam'] as const).map((status) => (
          <a key={status} href={tabUrl(status)} aria-current={props.status === status ? 'page' : undefined}>
            {tabLabels[status]} <span class="muted small">{props.counts[status]}</span>
          </a>
        ))}
      </nav>
      {props.requests.length === 0 ? (
        <div class="card">
          <Empty title={props.status === 'open' ? 'No open requests' : props.status === 'resolved' ? 'Nothing resolved yet' : 'No spam'}>
            <p>{props.status === 'spam' ? 'Requests caught by the honeypot land here, without webhook events.' : 'Put the widget on your pages (below), and what visitors send appears here.'}</p>
          </Empty>
        </div>
      ) : (
        props.requests.map((request, index) => <RequestItem key={request.id} request={request} path={path} csrf={props.frame.csrfToken} open={index === 0 && props.cursor === undefined} />)
      )}
      <Pager label="Requests pages" first={props.cursor ? tabUrl(props.status) : null} next={props.nextCursor ? tabUrl(props.status, props.nextCursor) : null} />
      <section class="card" aria-labelledby="widget-title">
        <h2 id="widget-title">The widget</h2>
        <p>
          {on.length === 0 ? 'The widget is off in every environment.' : `The widget shows in ${on.join(', ')}.`} Switch it per environment with <code>pinpoints</code> in{' '}
          <code>service.json</code> and <code>svc push</code>.
        </p>
        <label for="widget-snippet">Script tag</label>
        <textarea id="widget-snippet" readOnly rows={3} class="mono">
          {props.pinpoints.snippet}
        </textarea>
        <p>
          <button type="button" data-copy="widget-snippet" hidden>
            Copy tag
          </button>
        </p>
      </section>
      <RequestSettingsForm path={path} csrf={props.frame.csrfToken} settings={props.settings} error={props.settingsError} />
    </Shell>
  );
}

/** How long the project keeps its requests (docs/privacy.md), as `svc requests set --retention` sets it. */
function RequestSettingsForm(props: { path: string; csrf: string | undefined; settings: RequestSettings; error: RequestsPageProps['settingsError'] }) {
  const value = props.error?.retention ?? (props.settings.retentionSeconds === null ? '' : formatDurationSeconds(props.settings.retentionSeconds));
  return (
    <section class="card" aria-labelledby="request-settings-title">
      <h2 id="request-settings-title">Keeping requests</h2>
      {props.error ? <Notice tone="bad">{props.error.message}</Notice> : null}
      <form method="post" action={`${props.path}/settings`}>
        <Csrf token={props.csrf} />
        <TextField id="request-retention" name="retention" label="Retention" value={value} placeholder="kept until deleted" spellcheck={false}>
          Requests older than this are removed with their replies and screenshots, in the background, e.g. <code>180d</code>. Empty: kept until deleted.
        </TextField>
        <SaveSettingsButton />
      </form>
    </section>
  );
}

/**
 * The picked element's box drawn over the screenshot. The screenshot shows exactly the
 * viewport, so the box is placed in percent of the viewport and scales with the image;
 * SVG attributes, not inline styles, which the Content-Security-Policy refuses.
 */
function ElementOutline(props: { request: RequestInfo }) {
  const place = elementPlacement(props.request);
  if (place === null) return null;
  const percent = (value: number) => `${(value * 100).toFixed(3)}%`;
  return (
    <svg class="shot-box" aria-hidden="true" focusable="false">
      <rect x={percent(place.left)} y={percent(place.top)} width={percent(place.width)} height={percent(place.height)} />
    </svg>
  );
}

function isWebUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

function RequestItem(props: { request: RequestInfo; path: string; csrf: string | undefined; open: boolean }) {
  const { request } = props;
  const itemPath = `${props.path}/${encodeURIComponent(request.id)}`;
  const excerpt = request.comment.length > 120 ? `${request.comment.slice(0, 120)}…` : request.comment;
  const reporter = [request.name, request.email].filter((part): part is string => part !== null).join(' · ');
  return (
    <details class="item" id={request.id} open={props.open}>
      <summary>
        <span class="summary-main">
          <Time at={request.createdAt} />
          <span class="small">
            <Breakable text={excerpt} />
          </span>
        </span>
        <span>
          <Badge tone="neutral">{request.environment}</Badge>{' '}
          {request.replies.length > 0 ? <span class="muted small">{`${request.replies.length} ${request.replies.length === 1 ? 'reply' : 'replies'}`}</span> : null}
        </span>
      </summary>
      <div class="item-body">
        <dl class="fields">
          <dt>Comment</dt>
          <dd>
            <Breakable text={request.comment} />
          </dd>
          <dt>Page</dt>
          <dd class="url">
            {isWebUrl(request.url) ? (
              <a href={request.url} rel="noopener noreferrer">
                <Breakable text={request.url} />
              </a>
            ) : (
              <Breakable text={request.url} />
            )}
          </dd>
          <dt>Element</dt>
          <dd class="mono small url">{request.selector === null ? '—' : <Breakable text={request.selector} />}</dd>
          <dt>From</dt>
          <dd class="url">{reporter === '' ? <span class="muted">anonymous</span> : <Breakable text={reporter} />}</dd>
          <dt>Viewport</dt>
          <dd>{request.viewport ?? '—'}</dd>
          <dt>Screenshot</dt>
          <dd>
            {request.screenshot === null ? (
              <span class="muted">none{request.screenshotError === null ? '' : ` (${request.screenshotError})`}</span>
            ) : (
              <Fragment>
                <a href={`${itemPath}/screenshot`} class="shot-link">
                  <span class="shot-frame">
                    <img class="shot" src={`${itemPath}/screenshot`} alt={`Screenshot of ${request.url} as the visitor saw it, redacted`} loading="lazy" />
                    <ElementOutline request={request} />
                  </span>
                </a>
                <div>
                  <a href={`${itemPath}/screenshot?download=1`} download>
                    Download PNG
                  </a>{' '}
                  <span class="muted small">{formatBytes(request.screenshot.size)}</span>
                </div>
              </Fragment>
            )}
          </dd>
        </dl>
        <h3 class="thread-title">Thread</h3>
        {request.replies.length === 0 ? (
          <p class="muted small">No replies yet. The visitor sees replies when they open the widget again.</p>
        ) : (
          <ol class="thread">
            {request.replies.map((reply) => (
              <li key={reply.id}>
                <span class="small">
                  <strong>{reply.author}</strong> · <Time at={reply.createdAt} />
                </span>
                <p>{reply.message}</p>
              </li>
            ))}
          </ol>
        )}
        {request.status === 'spam' ? null : (
          <form method="post" action={`${itemPath}/replies`} class="reply-form">
            <Csrf token={props.csrf} />
            <label for={`reply-${request.id}`}>Reply</label>
            <textarea id={`reply-${request.id}`} name="message" rows={3} maxLength={5000} required />
            <button type="submit" class="primary">
              Send reply
            </button>
          </form>
        )}
        <div class="action-bar start">
          {request.status === 'open' ? <PostButton action={`${itemPath}/resolve`} csrf={props.csrf} label="Resolve" /> : null}
          {request.status === 'resolved' ? <PostButton action={`${itemPath}/reopen`} csrf={props.csrf} label="Reopen" /> : null}
          <a class="button" href={`${itemPath}/delete`} aria-label={`Delete request ${request.id}`}>
            Delete
          </a>
          <span class="muted small mono">{request.id}</span>
        </div>
      </div>
    </details>
  );
}

/** The confirmation before a request is deleted: a page of its own, so it works without JavaScript. */
export function DeleteRequestPage(props: ProjectPageBase & { request: RequestInfo }) {
  const base = projectPath(props.workspace, props.project);
  const path = `${base}/requests`;
  const { request } = props;
  const back = request.status === 'open' ? path : `${path}?status=${request.status}`;
  return (
    <Shell frame={props.frame} title="Delete request" crumbs={projectCrumbs(props.workspace, props.project, 'Requests')} nav={<ProjectNav base={base} current="requests" forms={props.forms} />}>
      <div class="page-head">
        <h1>Delete this request?</h1>
      </div>
      <section class="card">
        <p>
          The request <span class="mono">{request.id}</span>, sent <Time at={request.createdAt} />, is deleted with its comment, reporter, replies and screenshot, and its webhook
          events keep only its id. This cannot be undone.
        </p>
        <p class="muted small">
          <Breakable text={request.comment.length > 200 ? `${request.comment.slice(0, 200)}…` : request.comment} />
        </p>
        <div class="action-bar start">
          <PostButton action={`${path}/${encodeURIComponent(request.id)}/delete`} csrf={props.frame.csrfToken} label="Delete request" kind="danger" fields={{ from: request.status }} />
          <a class="button" href={back}>
            Cancel
          </a>
        </div>
      </section>
    </Shell>
  );
}
