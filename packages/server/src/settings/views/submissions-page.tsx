import { Fragment } from 'preact';
import type { FormInfo, SubmissionInfo } from '@svc/protocol/api';
import { formatBytes } from '../../lib/format-bytes.js';
import { Empty, Pager, Time } from './components.js';
import { ProjectNav, Shell } from './layout.js';
import { projectCrumbs, projectPath, type ProjectPageBase } from './overview-page.js';

export interface SubmissionsPageProps extends ProjectPageBase {
  readonly form: FormInfo;
  readonly state: 'inbox' | 'spam';
  readonly submissions: readonly SubmissionInfo[];
  readonly nextCursor: string | null;
  readonly cursor: string | undefined;
}

export function SubmissionsPage(props: SubmissionsPageProps) {
  const base = projectPath(props.workspace, props.project);
  const path = `${base}/forms/${encodeURIComponent(props.form.slug)}`;
  const tab = (state: 'inbox' | 'spam', label: string) => (
    <a href={state === 'inbox' ? path : `${path}?state=spam`} aria-current={props.state === state ? 'page' : undefined}>
      {label}
    </a>
  );
  const pageUrl = (cursor: string | null) => {
    const params = new URLSearchParams();
    if (props.state === 'spam') params.set('state', 'spam');
    if (cursor) params.set('cursor', cursor);
    const text = params.toString();
    return text ? `${path}?${text}` : path;
  };
  const title = props.form.name ?? props.form.slug;
  const snippet = `<form action="${props.form.url}" method="post" enctype="multipart/form-data">\n  <label>Email <input type="email" name="email" required></label>\n  <label>Message <textarea name="message"></textarea></label>\n  <button type="submit">Send</button>\n</form>`;
  return (
    <Shell frame={props.frame} title={`${title} · Submissions`} crumbs={projectCrumbs(props.workspace, props.project, title)} nav={<ProjectNav base={base} current="forms" forms={props.forms} currentForm={props.form.slug} />}>
      <div class="page-head">
        <div>
          <h1>{title}</h1>
          <p class="lead">
            Submissions of the form <span class="mono">{props.form.slug}</span>, newest first
          </p>
        </div>
        <div class="action-bar">
          <a class="button" href={`${path}/export?format=csv&state=${props.state}`} download>
            Export CSV
          </a>
          <a class="button" href={`${path}/export?format=ndjson&state=${props.state}`} download>
            Export NDJSON
          </a>
        </div>
      </div>
      <nav class="tabs" aria-label="Submission folders">
        {tab('inbox', 'Inbox')}
        {tab('spam', 'Spam')}
      </nav>
      {props.submissions.length === 0 ? (
        <div class="card">
          <Empty title={props.state === 'spam' ? 'No spam' : 'No submissions yet'}>
            <p>{props.state === 'spam' ? 'Submissions caught by the honeypot land here.' : 'Post the form below from your site, and submissions appear here.'}</p>
          </Empty>
        </div>
      ) : (
        props.submissions.map((submission, index) => <SubmissionItem key={submission.id} submission={submission} path={path} open={index === 0 && props.cursor === undefined} />)
      )}
      <Pager label="Submissions pages" first={props.cursor ? pageUrl(null) : null} next={props.nextCursor ? pageUrl(props.nextCursor) : null} />
      <section class="card" aria-labelledby="endpoint-title">
        <h2 id="endpoint-title">Endpoint</h2>
        <div class="field">
          <label for="endpoint-url">Form endpoint URL</label>
          <div class="secret-value">
            <input id="endpoint-url" type="text" readOnly value={props.form.url} class="mono" />
            <button type="button" data-copy="endpoint-url" hidden>
              Copy
            </button>
          </div>
        </div>
        <label for="snippet">HTML snippet</label>
        <textarea id="snippet" readOnly rows={6} class="mono">
          {snippet}
        </textarea>
        <p>
          <button type="button" data-copy="snippet" hidden>
            Copy snippet
          </button>
        </p>
        <p class="muted small">
          Rate limit: {props.form.rateLimit ? `${props.form.rateLimit.max} per ${props.form.rateLimit.windowSeconds} s per visitor` : 'the server default'} (change it with <code>svc forms set-rate-limit</code>).
        </p>
      </section>
    </Shell>
  );
}

function SubmissionItem(props: { submission: SubmissionInfo; path: string; open: boolean }) {
  const { submission } = props;
  const entries = Object.entries(submission.fields);
  const preview = entries
    .slice(0, 3)
    .map(([, value]) => fieldText(value))
    .join(' · ');
  return (
    <details class="item" open={props.open}>
      <summary>
        <span class="summary-main">
          <Time at={submission.createdAt} />
          <span class="muted small">{preview.length > 120 ? `${preview.slice(0, 120)}…` : preview}</span>
        </span>
        <span class="muted small">{submission.files.length > 0 ? `${submission.files.length} ${submission.files.length === 1 ? 'file' : 'files'}` : ''}</span>
      </summary>
      <div class="item-body">
        <dl class="fields">
          {entries.map(([name, value]) => (
            <Fragment key={`n-${name}`}>
              <dt>{name}</dt>
              <dd>{fieldText(value)}</dd>
            </Fragment>
          ))}
          {submission.files.map((file, index) => (
            <Fragment key={`f-${index}`}>
              <dt>{file.field}</dt>
              <dd>
                <a href={`${props.path}/submissions/${encodeURIComponent(submission.id)}/files/${index}`} download>
                  {file.name}
                </a>{' '}
                <span class="muted small">
                  {formatBytes(file.size)} · {file.contentType}
                </span>
              </dd>
            </Fragment>
          ))}
        </dl>
        <p class="muted small mono">{submission.id}</p>
      </div>
    </details>
  );
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(fieldText).join(', ');
  return JSON.stringify(value);
}
