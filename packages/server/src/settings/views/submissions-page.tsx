import { Fragment } from 'preact';
import { formatDurationSeconds, formatRateLimit, maxLinksLimit } from '@svc/protocol';
import type { FormInfo, SubmissionInfo } from '@svc/protocol/api';
import { formSnippet } from '../../forms/spam/form-snippet.js';
import { formatBytes } from '../../lib/format-bytes.js';
import { Badge, Breakable, Csrf, Empty, Notice, Pager, PostButton, SaveSettingsButton, TextField, Time } from './components.js';
import { ProjectNav, Shell } from './layout.js';
import { projectCrumbs, projectPath, type ProjectPageBase } from './overview-page.js';

/** What the form settings fields held when a save was refused, to show them again. */
export interface FormSettingsValues {
  readonly successUrl: string;
  readonly errorUrl: string;
  readonly notify: string;
  readonly rateLimit: string;
  readonly retention: string;
  readonly captcha: string;
  readonly maxLinks: string;
  readonly origins: string;
}

export interface SubmissionsPageProps extends ProjectPageBase {
  readonly form: FormInfo;
  readonly state: 'inbox' | 'spam';
  /** How many submissions each tab holds. */
  readonly counts: Readonly<Record<'inbox' | 'spam', number>>;
  readonly submissions: readonly SubmissionInfo[];
  readonly nextCursor: string | null;
  readonly cursor: string | undefined;
  readonly notice?: string;
  /** The server sends notification emails (`--smtp-url`). */
  readonly canNotify: boolean;
  readonly settingsError?: string;
  readonly settingsValues?: FormSettingsValues;
}

export function SubmissionsPage(props: SubmissionsPageProps) {
  const base = projectPath(props.workspace, props.project);
  const path = `${base}/forms/${encodeURIComponent(props.form.slug)}`;
  const tab = (state: 'inbox' | 'spam', label: string) => (
    <a href={state === 'inbox' ? path : `${path}?state=spam`} aria-current={props.state === state ? 'page' : undefined}>
      {label} <span class="muted small">{props.counts[state]}</span>
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
  const snippet = formSnippet(props.form.url, props.form.captcha);
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
      {props.notice ? <Notice tone="ok">{props.notice}</Notice> : null}
      <nav class="tabs" aria-label="Submission folders">
        {tab('inbox', 'Inbox')}
        {tab('spam', 'Spam')}
      </nav>
      {props.submissions.length === 0 ? (
        <div class="card">
          <Empty title={props.state === 'spam' ? 'No spam' : 'No submissions yet'}>
            <p>{props.state === 'spam' ? 'Submissions caught by the honeypot, a captcha that could not be checked, or too many links land here.' : 'Post the form below from your site, and submissions appear here.'}</p>
          </Empty>
        </div>
      ) : (
        props.submissions.map((submission, index) => (
          <SubmissionItem key={submission.id} submission={submission} path={path} csrf={props.frame.csrfToken} open={index === 0 && props.cursor === undefined} />
        ))
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
        <textarea id="snippet" readOnly rows={snippet.split('\n').length + 1} class="mono">
          {snippet}
        </textarea>
        <p>
          <button type="button" data-copy="snippet" hidden>
            Copy snippet
          </button>
        </p>
      </section>
      <FormSettings form={props.form} path={path} csrf={props.frame.csrfToken} canNotify={props.canNotify} error={props.settingsError} values={props.settingsValues} />
    </Shell>
  );
}

/** Where browsers go after a post, who is emailed, the rate limit and how long submissions are kept (`svc forms set`). */
function FormSettings(props: { form: FormInfo; path: string; csrf: string | undefined; canNotify: boolean; error: string | undefined; values: FormSettingsValues | undefined }) {
  const { form } = props;
  const values = props.values ?? {
    successUrl: form.successUrl ?? '',
    errorUrl: form.errorUrl ?? '',
    notify: form.notify.join(', '),
    rateLimit: form.rateLimit ? formatRateLimit(form.rateLimit) : '',
    retention: form.retentionSeconds === null ? '' : formatDurationSeconds(form.retentionSeconds),
    captcha: form.captcha,
    maxLinks: form.maxLinks === null ? '' : String(form.maxLinks),
    origins: form.origins === 'any' ? '' : form.origins.split(',').join(', '),
  };
  const captchas = [
    ['none', 'None (the honeypot only)'],
    ['altcha', 'ALTCHA (proof of work, built in)'],
    ['turnstile', 'Cloudflare Turnstile'],
    ['hcaptcha', 'hCaptcha'],
  ] as const;
  return (
    <section class="card" aria-labelledby="settings-title">
      <h2 id="settings-title">Form settings</h2>
      {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
      <form method="post" action={`${props.path}/settings`}>
        <Csrf token={props.csrf} />
        <TextField id="success-url" name="successUrl" label="Success URL" url value={values.successUrl} placeholder="https://example.com/thanks">
          Where a browser goes after a post without JavaScript. Empty: a thank-you page with a link back.
        </TextField>
        <TextField id="error-url" name="errorUrl" label="Error URL" url value={values.errorUrl} placeholder="https://example.com/form-error">
          Gets <code>?error=CODE</code> (and <code>&amp;field=NAME</code>). Empty: a page that says what went wrong.
        </TextField>
        <TextField id="notify" name="notify" label="Notification emails" value={values.notify} placeholder="owner@example.com, sales@example.com">
          {props.canNotify ? 'Each new submission (not spam) is emailed to these addresses, comma-separated.' : 'This server sends no email: start it with --smtp-url and --mail-from to use this.'}
        </TextField>
        <TextField id="rate-limit" name="rateLimit" label="Rate limit" value={values.rateLimit} placeholder="the server default">
          Submissions per visitor, as requests/window, e.g. <code>10/1m</code>. Empty: the server default.
        </TextField>
        <TextField id="retention" name="retention" label="Retention" value={values.retention} placeholder="kept until deleted" spellcheck={false}>
          Submissions older than this are removed with their files, in the background, e.g. <code>90d</code> or <code>12h</code>. Empty: kept until deleted.
        </TextField>
        <fieldset>
          <legend>Spam protection</legend>
          <div class="field">
            <label for="captcha">Captcha</label>
            <select id="captcha" name="captcha" aria-describedby="captcha-hint">
              {captchas.map(([value, label]) => (
                <option key={value} value={value} selected={values.captcha === value}>
                  {label}
                </option>
              ))}
            </select>
            <p id="captcha-hint" class="hint">
              Every post must solve it, or gets an error and is not stored. ALTCHA needs nothing else; the snippet above shows what your page needs.
            </p>
          </div>
          <div class="field">
            <label for="captcha-secret">Captcha secret key</label>
            <input id="captcha-secret" name="captchaSecret" type="password" value="" autocomplete="off" placeholder={form.captchaSecretSet ? 'stored (leave empty to keep it)' : 'for Turnstile or hCaptcha'} aria-describedby="captcha-secret-hint" />
            <p id="captcha-secret-hint" class="hint">
              The secret key from Turnstile or hCaptcha, stored encrypted and never shown. {form.captchaSecretSet ? 'A key is stored; leave this empty to keep it.' : 'No key is stored.'}
            </p>
          </div>
          <div class="field">
            <label for="max-links">Most links</label>
            <input id="max-links" name="maxLinks" type="number" min={0} max={maxLinksLimit} inputMode="numeric" value={values.maxLinks} placeholder="no limit" aria-describedby="max-links-hint" />
            <p id="max-links-hint" class="hint">A submission with more links than this goes to Spam. Empty: no limit.</p>
          </div>
          <TextField id="origins" name="origins" label="Allowed origins" value={values.origins} placeholder="any" spellcheck={false}>
            Pages that may post: <code>project</code> (the project's domains and local development hosts), origins such as <code>https://example.com</code>, comma-separated, or empty for any. Scripts that send no <code>Origin</code> are not affected.
          </TextField>
        </fieldset>
        <SaveSettingsButton />
      </form>
    </section>
  );
}

export function DeleteSubmissionPage(props: ProjectPageBase & { form: FormInfo; submission: SubmissionInfo }) {
  const base = projectPath(props.workspace, props.project);
  const path = `${base}/forms/${encodeURIComponent(props.form.slug)}`;
  const title = props.form.name ?? props.form.slug;
  return (
    <Shell frame={props.frame} title="Delete submission" crumbs={projectCrumbs(props.workspace, props.project, title)} nav={<ProjectNav base={base} current="forms" forms={props.forms} currentForm={props.form.slug} />}>
      <div class="page-head">
        <h1>Delete this submission?</h1>
      </div>
      <section class="card">
        <p>
          The submission <span class="mono">{props.submission.id}</span> of <Time at={props.submission.createdAt} /> is deleted with its files, and its webhook events keep
          only its id. This cannot be undone.
        </p>
        <div class="action-bar start">
          <PostButton action={`${path}/submissions/${encodeURIComponent(props.submission.id)}/delete`} csrf={props.frame.csrfToken} label="Delete submission" kind="danger" />
          <a class="button" href={props.submission.state === 'spam' ? `${path}?state=spam` : path}>
            Cancel
          </a>
        </div>
      </section>
    </Shell>
  );
}

function SubmissionItem(props: { submission: SubmissionInfo; path: string; csrf: string | undefined; open: boolean }) {
  const { submission } = props;
  const itemPath = `${props.path}/submissions/${encodeURIComponent(submission.id)}`;
  const entries = Object.entries(submission.fields);
  const preview = entries
    .slice(0, 3)
    .map(([, value]) => fieldText(value))
    .join(' · ');
  return (
    <details class="item" id={submission.id} open={props.open}>
      <summary>
        <span class="summary-main">
          <Time at={submission.createdAt} />
          {submission.spamReason ? <Badge tone="warn">{spamReasonLabels[submission.spamReason]}</Badge> : null}
          <span class="muted small">
            <Breakable text={preview.length > 120 ? `${preview.slice(0, 120)}…` : preview} />
          </span>
        </span>
        <span class="muted small">{submission.files.length > 0 ? `${submission.files.length} ${submission.files.length === 1 ? 'file' : 'files'}` : ''}</span>
      </summary>
      <div class="item-body">
        <dl class="fields">
          {entries.map(([name, value]) => (
            <Fragment key={`n-${name}`}>
              <dt>
                <Breakable text={name} />
              </dt>
              <dd>
                <Breakable text={fieldText(value)} />
              </dd>
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
        <div class="action-bar start">
          {submission.state === 'spam' ? (
            <PostButton action={`${itemPath}/move`} csrf={props.csrf} label="Move to inbox" fields={{ to: 'inbox' }} />
          ) : (
            <PostButton action={`${itemPath}/move`} csrf={props.csrf} label="Move to spam" fields={{ to: 'spam' }} />
          )}
          <a class="button" href={`${itemPath}/delete`} aria-label={`Delete submission ${submission.id}`}>
            Delete
          </a>
          <span class="muted small mono">{submission.id}</span>
        </div>
      </div>
    </details>
  );
}

/** Why a submission is in Spam, in words (docs/settings.md). */
const spamReasonLabels: Record<NonNullable<SubmissionInfo['spamReason']>, string> = {
  honeypot: 'honeypot',
  captcha_unverified: 'captcha not verified',
  links: 'too many links',
  manual: 'moved by hand',
};

function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(fieldText).join(', ');
  return JSON.stringify(value);
}
