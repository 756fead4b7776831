import type { FormInfo, ListDeploysResponse, RequestCounts } from '@svc/protocol/api';
import { formatBytes } from '../../lib/format-bytes.js';
import { activityTotals, type ActivityHour } from '../../operations/activity.js';
import type { UploadUsage } from '../../operations/upload-usage.js';
import type { WebhookStatus } from '../../operations/webhook-health.js';
import { ActivityChart } from './activity-chart.js';
import { Breakable, Empty, Time } from './components.js';
import { HealthBadge } from './webhook-parts.js';
import { ProjectNav, Shell, type PageFrame } from './layout.js';

export interface ProjectPageBase {
  readonly frame: PageFrame;
  readonly workspace: string;
  readonly project: string;
  readonly forms: readonly FormInfo[];
}

export const projectPath = (workspace: string, project: string): string => `/settings/${encodeURIComponent(workspace)}/${encodeURIComponent(project)}`;

export function projectCrumbs(workspace: string, project: string, last?: string) {
  const base = [{ label: 'Projects', href: '/settings' }, { label: workspace }];
  return last === undefined ? [...base, { label: project }] : [...base, { label: project, href: projectPath(workspace, project) }, { label: last }];
}

export function OverviewPage(
  props: ProjectPageBase & { webhooks: readonly WebhookStatus[]; activity: readonly ActivityHour[]; requests: RequestCounts; live: ListDeploysResponse['live']; uploads: UploadUsage },
) {
  const base = projectPath(props.workspace, props.project);
  const totals = activityTotals(props.activity);
  const failing = props.webhooks.filter((status) => status.health === 'failing');
  return (
    <Shell frame={props.frame} title={`${props.project} · Overview`} crumbs={projectCrumbs(props.workspace, props.project)} nav={<ProjectNav base={base} current="overview" forms={props.forms} />}>
      <div class="page-head">
        <div>
          <h1>{props.project}</h1>
          <p class="lead">Overview of the last 24 hours</p>
        </div>
      </div>
      <UploadQuotaNotice uploads={props.uploads} />
      <div class="grid stats">
        <div class="card stat">
          <span class="value">{totals.submissions}</span>
          <span class="label">Submissions{totals.spam > 0 ? ` (and ${totals.spam} spam)` : ''}</span>
        </div>
        <div class="card stat">
          <span class="value">{totals.delivered}</span>
          <span class="label">Webhook deliveries succeeded</span>
        </div>
        <div class={totals.failedAttempts > 0 || failing.length > 0 ? 'card stat bad' : 'card stat'}>
          <span class="value">{totals.failedAttempts}</span>
          <span class="label">Delivery attempts failed</span>
          {failing.length === 0 ? (
            <span class="label">No webhook failing now</span>
          ) : (
            <a class="label" href={`${base}/webhooks`}>{`${failing.length} ${failing.length === 1 ? 'webhook' : 'webhooks'} failing now`}</a>
          )}
        </div>
        <div class="card stat">
          <span class="value">{formatBytes(props.uploads.bytes)}</span>
          <span class="label">{`Stored uploads, of ${formatBytes(props.uploads.quotaBytes)} allowed`}</span>
        </div>
      </div>
      <section class="card" aria-labelledby="activity">
        <h2 id="activity">Activity per hour</h2>
        <ActivityChart hours={props.activity} />
      </section>
      <div class="grid">
        <section class="card" aria-labelledby="forms-title">
          <h2 id="forms-title">Forms</h2>
          {props.forms.length === 0 ? (
            <Empty title="No forms yet">
              <p>
                Add a form to <code>service.json</code> and run <code>svc push</code>.
              </p>
            </Empty>
          ) : (
            <ul class="plain">
              {props.forms.map((form) => (
                <li key={form.slug}>
                  <a href={`${base}/forms/${encodeURIComponent(form.slug)}`}>{form.name ?? form.slug}</a>
                  <div class="muted small mono url">
                    <Breakable text={form.slug} />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section class="card" aria-labelledby="webhooks-title">
          <h2 id="webhooks-title">
            Webhooks <a class="small" href={`${base}/webhooks`}>Manage</a>
          </h2>
          {props.webhooks.length === 0 ? (
            <Empty title="No webhooks yet">
              <p>
                <a href={`${base}/webhooks`}>Add one</a>, or run <code>svc webhooks add</code>.
              </p>
            </Empty>
          ) : (
            <ul class="plain">
              {props.webhooks.map((status) => (
                <li key={status.webhook.id}>
                  <a href={`${base}/webhooks/${encodeURIComponent(status.webhook.id)}`} class="url">
                    <Breakable text={status.webhook.url} />
                  </a>
                  <div>
                    <HealthBadge health={status.health} />
                    {status.health === 'failing' && status.webhook.failingSince ? (
                      <span class="muted small">
                        {' · first failed '}
                        <Time at={status.webhook.failingSince} />
                      </span>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section class="card" aria-labelledby="requests-title">
          <h2 id="requests-title">
            Requests <a class="small" href={`${base}/requests`}>Open inbox</a>
          </h2>
          {props.requests.open + props.requests.resolved === 0 ? (
            <Empty title="No requests yet">
              <p>
                Put the Pinpoints widget on your pages (<code>svc pinpoints snippet</code>); what visitors send lands here.
              </p>
            </Empty>
          ) : (
            <p>
              <a href={`${base}/requests`}>{`${props.requests.open} open`}</a>
              <span class="muted">{` · ${props.requests.resolved} resolved`}</span>
            </p>
          )}
        </section>
        <section class="card" aria-labelledby="deploys-title">
          <h2 id="deploys-title">
            Deploys <a class="small" href={`${base}/deploys`}>Manage</a>
          </h2>
          {Object.values(props.live).every((id) => id === null) ? (
            <Empty title="Nothing deployed yet">
              <p>
                <code>svc deploy</code> uploads a build and makes it live.
              </p>
            </Empty>
          ) : (
            <ul class="plain">
              {Object.entries(props.live)
                .filter(([, id]) => id !== null)
                .map(([environment, id]) => (
                  <li key={environment}>
                    {environment}
                    <div class="mono small nowrap">{id}</div>
                  </li>
                ))}
            </ul>
          )}
        </section>
      </div>
    </Shell>
  );
}

/**
 * Says when the project's stored uploads are at their quota, and what follows: the public
 * endpoints refuse files and screenshots with 413 `quota_exceeded` (docs/hosting.md).
 */
function UploadQuotaNotice(props: { uploads: UploadUsage }) {
  const { bytes, quotaBytes } = props.uploads;
  if (bytes < quotaBytes * 0.9) return null;
  const full = bytes >= quotaBytes;
  return (
    <section class={full ? 'notice bad' : 'notice warn'} aria-labelledby="quota-title">
      <h2 id="quota-title">{full ? 'Uploads are at their quota' : 'Uploads are close to their quota'}</h2>
      <p>
        {`This project keeps ${formatBytes(bytes)} of form files and Pinpoints screenshots, of ${formatBytes(quotaBytes)} allowed. `}
        {full ? 'Forms that carry files and Pinpoints screenshots are refused (413 quota_exceeded) ' : 'Past the quota, forms that carry files and Pinpoints screenshots are refused (413 quota_exceeded) '}
        until files are deleted (<code>svc submissions delete</code>, <code>svc submissions erase</code>) or the server's <code>--upload-quota</code> is raised. Forms without files
        still work.
      </p>
    </section>
  );
}
