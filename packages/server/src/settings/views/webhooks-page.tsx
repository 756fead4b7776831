import type { WebhookStatus } from '../../operations/webhook-health.js';
import { Breakable, Cell, DataTable, Empty, Notice, PostButton, SecretOnce, Time } from './components.js';
import { ProjectNav, Shell } from './layout.js';
import { projectCrumbs, projectPath, type ProjectPageBase } from './overview-page.js';
import { answerText, HealthBadge } from './webhook-parts.js';

export interface WebhookFormValues {
  readonly url: string;
  readonly events: string;
  readonly description: string;
}

export interface WebhooksPageProps extends ProjectPageBase {
  readonly webhooks: readonly WebhookStatus[];
  readonly notice?: string;
  readonly error?: string;
  readonly values?: WebhookFormValues;
  /** Right after adding or rotating: the secret, shown this once. */
  readonly secret?: { readonly webhookUrl: string; readonly value: string; readonly rotated: boolean };
}

export function WebhooksPage(props: WebhooksPageProps) {
  const base = projectPath(props.workspace, props.project);
  const csrf = props.frame.csrfToken;
  const values = props.values ?? { url: '', events: '*', description: '' };
  return (
    <Shell frame={props.frame} title={`${props.project} · Webhooks`} crumbs={projectCrumbs(props.workspace, props.project, 'Webhooks')} nav={<ProjectNav base={base} current="webhooks" forms={props.forms} />}>
      <div class="page-head">
        <div>
          <h1>Settings → Webhooks</h1>
          <p class="lead">Signed HTTP requests to your endpoints when something happens in {props.project}.</p>
        </div>
      </div>
      {props.secret ? (
        <SecretOnce id="signing-secret" title={props.secret.rotated ? 'New signing secret' : 'Webhook added: its signing secret'} value={props.secret.value}>
          <p class="small">
            For{' '}
            <span class="url">
              <Breakable text={props.secret.webhookUrl} />
            </span>
            . Verify each request's <code>x-service-signature</code> with it (<code>@svc/webhooks</code>).
          </p>
        </SecretOnce>
      ) : null}
      {props.notice ? <Notice tone="ok">{props.notice}</Notice> : null}
      <section class="card" aria-labelledby="list-title">
        <h2 id="list-title">Webhooks</h2>
        {props.webhooks.length === 0 ? (
          <Empty title="No webhooks yet">
            <p>
              Add one below, or run <code>svc webhooks add --url … --events form.*</code>.
            </p>
          </Empty>
        ) : (
          <DataTable headers={['Endpoint', 'Events', 'Health', 'Last attempt', '']}>
            {props.webhooks.map(({ webhook, health, lastAttempt }) => {
              const path = `${base}/webhooks/${encodeURIComponent(webhook.id)}`;
              return (
                <tr key={webhook.id}>
                  <Cell class="endpoint">
                    <a href={path} class="url">
                      <Breakable text={webhook.url} />
                    </a>
                    {webhook.description ? <div class="muted small">{webhook.description}</div> : null}
                    <div class="muted small mono nowrap">{webhook.id}</div>
                  </Cell>
                  <Cell label="Events" class="mono small">
                    {webhook.events.join(', ')}
                  </Cell>
                  <Cell label="Health">
                    <HealthBadge health={health} />
                    {!webhook.enabled && webhook.disabledReason ? <div class="muted small">{webhook.disabledReason}</div> : null}
                  </Cell>
                  <Cell label="Last attempt" class="small">
                    {lastAttempt ? (
                      <>
                        <Time at={lastAttempt.at} />
                        <div class="muted">{answerText(lastAttempt.statusCode, lastAttempt.error)}</div>
                      </>
                    ) : (
                      <span class="muted">Never</span>
                    )}
                  </Cell>
                  <td class="actions">
                    <div class="action-bar">
                      <a class="button" href={path}>
                        Delivery log
                      </a>
                      <PostButton action={`${path}/test`} csrf={csrf} label="Send test event" />
                      {webhook.enabled ? <PostButton action={`${path}/disable`} csrf={csrf} label="Disable" /> : <PostButton action={`${path}/enable`} csrf={csrf} label="Enable" />}
                      {webhook.url.startsWith('mailto:') ? (
                        <span class="muted small">Notification emails: change them in the form's settings</span>
                      ) : (
                        <>
                          <PostButton action={`${path}/rotate-secret`} csrf={csrf} label="Rotate secret" confirm="Rotate the signing secret? The old one keeps signing for 24 hours." />
                          <a class="button" href={`${path}/delete`} aria-label={`Delete webhook ${webhook.url}`}>
                            Delete
                          </a>
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
      </section>
      <section class="card" aria-labelledby="add-title">
        <h2 id="add-title">Add a webhook</h2>
        {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
        <form method="post" action={`${base}/webhooks`}>
          <input type="hidden" name="_csrf" value={csrf ?? ''} />
          <div class="field">
            <label for="url">URL</label>
            <input id="url" name="url" type="url" required value={values.url} placeholder="https://example.com/hooks/svc" aria-describedby="url-hint" />
            <p class="hint" id="url-hint">
              An <code>https://</code> address of your receiver. Redirects are not followed.
            </p>
          </div>
          <div class="form-row">
            <div class="field">
              <label for="events">Events</label>
              <input id="events" name="events" type="text" required value={values.events} aria-describedby="events-hint" spellcheck={false} />
              <p class="hint" id="events-hint">
                Comma-separated: <code>*</code>, <code>form.*</code>, <code>deploy.*</code>, <code>request.*</code> or exact types.
              </p>
            </div>
            <div class="field">
              <label for="description">Description</label>
              <input id="description" name="description" type="text" value={values.description} maxLength={500} aria-describedby="description-hint" />
              <p class="hint" id="description-hint">
                Optional: what receives it.
              </p>
            </div>
          </div>
          <button type="submit" class="primary">
            Add webhook
          </button>
        </form>
      </section>
    </Shell>
  );
}

export function DeleteWebhookPage(props: ProjectPageBase & { webhookId: string; url: string }) {
  const base = projectPath(props.workspace, props.project);
  const path = `${base}/webhooks/${encodeURIComponent(props.webhookId)}`;
  return (
    <Shell frame={props.frame} title="Delete webhook" crumbs={projectCrumbs(props.workspace, props.project, 'Delete webhook')} nav={<ProjectNav base={base} current="webhooks" forms={props.forms} />}>
      <div class="page-head">
        <h1>Delete this webhook?</h1>
      </div>
      <section class="card">
        <p>
          <span class="url mono">
            <Breakable text={props.url} />
          </span>{' '}
          will stop receiving events at once, and its delivery log is deleted with it. This cannot be undone.
        </p>
        <div class="action-bar start">
          <PostButton action={`${path}/delete`} csrf={props.frame.csrfToken} label="Delete webhook" kind="danger" />
          <a class="button" href={`${base}/webhooks`}>
            Cancel
          </a>
        </div>
      </section>
    </Shell>
  );
}
