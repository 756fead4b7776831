import type { BuildState, DeployInfo, EnvironmentName, InboundDeliveryInfo, ListDeploysResponse } from '@svc/protocol/api';
import { formatBytes } from '../../lib/format-bytes.js';
import type { BuildWithLogTail } from '../../operations/builds.js';
import { Badge, DataTable, Empty, Notice, PostButton, Time, type Tone } from './components.js';
import { ProjectNav, Shell } from './layout.js';
import { projectCrumbs, projectPath, type ProjectPageBase } from './overview-page.js';

export interface DeploysPageProps extends ProjectPageBase {
  readonly deploys: readonly DeployInfo[];
  readonly live: ListDeploysResponse['live'];
  /** Builds from git, newest first, each with its log's last lines. */
  readonly builds: readonly BuildWithLogTail[];
  /** Push webhooks and deploy hook calls that built nothing (ignored or refused), newest first. */
  readonly deliveries: readonly InboundDeliveryInfo[];
  /** The project's environments, from service.json. */
  readonly environments: readonly EnvironmentName[];
  /** Each environment's hostnames, from service.json. */
  readonly domains: Partial<Record<EnvironmentName, readonly string[]>>;
  /** What Roll back would serve on each environment; null where there is nothing to go back to. */
  readonly rollbackTo: Record<EnvironmentName, string | null>;
  readonly notice?: string;
  /** An action that failed, said inside the page. */
  readonly error?: string;
}

const stateTones: Record<DeployInfo['state'], Tone> = { live: 'ok', uploading: 'warn', superseded: 'neutral', failed: 'bad' };
const buildTones: Record<BuildState, Tone> = { queued: 'neutral', building: 'warn', succeeded: 'ok', failed: 'bad', canceled: 'neutral' };

/** Deploys per environment (docs/hosting.md): which one is live, promote, roll back. */
export function DeploysPage(props: DeploysPageProps) {
  const base = projectPath(props.workspace, props.project);
  const path = `${base}/deploys`;
  const csrf = props.frame.csrfToken;
  return (
    <Shell frame={props.frame} title={`${props.project} · Deploys`} crumbs={projectCrumbs(props.workspace, props.project, 'Deploys')} nav={<ProjectNav base={base} current="deploys" forms={props.forms} />}>
      <div class="page-head">
        <div>
          <h1>Deploys</h1>
          <p class="lead">What each environment serves, and every deploy, newest first</p>
        </div>
      </div>
      {props.error ? <Notice tone="bad">{props.error}</Notice> : null}
      {props.notice ? <Notice tone="ok">{props.notice}</Notice> : null}
      <div class="grid environments">
        {props.environments.map((environment) => (
          <EnvironmentCard key={environment} environment={environment} {...props} path={path} />
        ))}
      </div>
      {props.builds.length > 0 ? <BuildsSection builds={props.builds} /> : null}
      {props.deliveries.length > 0 ? <DeliveriesSection deliveries={props.deliveries} /> : null}
      {props.deploys.length === 0 ? (
        <div class="card">
          <Empty title="No deploys yet">
            <p>
              Run <code>svc deploy</code> in the project's directory.
            </p>
          </Empty>
        </div>
      ) : (
        <section class="card" aria-labelledby="deploys-title">
          <h2 id="deploys-title">All deploys</h2>
          <DataTable headers={['Deploy', 'State', 'Created', '']}>
            {props.deploys.map((deploy) => (
              <tr key={deploy.id}>
                <td data-label="Deploy" class="deploy-cell">
                  <DeployId id={deploy.id} />{' '}
                  <a class="small" href={deploy.previewUrl}>
                    Preview
                  </a>
                  <div class="muted small">
                    <span class="deploy-environment">{deploy.environment}</span>
                    {deploy.branch ? <span class="deploy-source">{` · ${deploy.branch}${deploy.commit ? `@${deploy.commit.slice(0, 7)}` : ''}`}</span> : null}
                    <span class="nowrap">{` · ${deploy.files} ${deploy.files === 1 ? 'file' : 'files'}, ${formatBytes(deploy.bytes)}`}</span>
                  </div>
                </td>
                <td data-label="State">
                  <Badge tone={stateTones[deploy.state]}>{deploy.state === 'live' ? `live on ${deploy.liveIn.join(', ')}` : deploy.state}</Badge>
                  {deploy.error ? <div class="muted small deploy-source">{deploy.error.split('\n')[0]}</div> : null}
                </td>
                <td data-label="Created">
                  <span class="nowrap">
                    <Time at={deploy.createdAt} />
                  </span>
                  {deploy.createdBy ? <div class="muted small deploy-source">by {deploy.createdBy}</div> : null}
                </td>
                <td data-label="" class="deploy-actions">
                  {deploy.state === 'live' || deploy.state === 'superseded' ? (
                    <div class="action-bar">
                      {props.environments
                        .filter((environment) => props.live[environment] !== deploy.id)
                        .map((environment) => (
                          <PostButton key={environment} action={`${path}/${encodeURIComponent(deploy.id)}/promote`} csrf={csrf} label={`Make live on ${environment}`} fields={{ to: environment }} />
                        ))}
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
        </section>
      )}
    </Shell>
  );
}

/** Builds from git (docs/hosting.md, "Deploys from git"): state, commit, trigger, and the end of each log. */
function BuildsSection(props: { builds: readonly BuildWithLogTail[] }) {
  return (
    <section class="card" aria-labelledby="builds-title">
      <h2 id="builds-title">Builds from git</h2>
      <DataTable headers={['Build', 'State', 'Trigger', 'Log']}>
        {props.builds.map((build) => (
          <tr key={build.id}>
            <td data-label="Build" class="deploy-cell">
              <span class="mono deploy-id">{build.id}</span>
              <div class="muted small">
                <span class="deploy-environment">{build.environment}</span>
                <span class="deploy-source">{` · ${build.branch}@${build.commit === null ? 'head' : build.commit.slice(0, 7)}`}</span>
              </div>
            </td>
            <td data-label="State">
              <Badge tone={buildTones[build.status]}>{build.status}</Badge>
              {build.error ? <div class="muted small deploy-source">{build.error}</div> : null}
            </td>
            <td data-label="Trigger">
              <span class="deploy-source">{build.trigger === 'push' ? 'git push' : `hook: ${build.createdBy}`}</span>
              <div class="muted small nowrap">
                <Time at={build.createdAt} />
              </div>
            </td>
            <td data-label="Log">
              {build.logTail === '' ? (
                <span class="muted small">none yet</span>
              ) : (
                <details>
                  <summary>Last lines</summary>
                  <pre class="block" tabIndex={0} aria-label={`The end of ${build.id}'s log`}>{build.logTail}</pre>
                  <p class="muted small">
                    The whole log: <code>svc builds logs {build.id}</code>
                  </p>
                </details>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

/** Where a delivery came from, as a person reads it. */
function deliverySource(delivery: InboundDeliveryInfo): string {
  if (delivery.source === 'hook') return `hook: ${delivery.hook?.name ?? ''}`;
  const event = delivery.event === null || delivery.event === 'push' || delivery.event === 'Push Hook' ? '' : ` ${delivery.event}`;
  return `push from ${delivery.host ?? 'an unsigned sender'}${event}`;
}

/**
 * Push webhooks and deploy hook calls that built nothing, each with why (docs/hosting.md,
 * "When a push did not deploy").
 */
function DeliveriesSection(props: { deliveries: readonly InboundDeliveryInfo[] }) {
  return (
    <section class="card" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Pushes that built nothing</h2>
      <DataTable headers={['Delivery', 'Verdict', 'From', 'Why']}>
        {props.deliveries.map((delivery) => (
          <tr key={delivery.id}>
            <td data-label="Delivery" class="deploy-cell">
              <span class="mono deploy-id">{delivery.id}</span>
              <div class="muted small nowrap">
                <Time at={delivery.receivedAt} />
              </div>
            </td>
            <td data-label="Verdict">
              <Badge tone={delivery.verdict === 'refused' ? 'bad' : 'neutral'}>{delivery.verdict}</Badge>
            </td>
            <td data-label="From">
              <span class="deploy-source">{deliverySource(delivery)}</span>
              {delivery.ref === null ? null : <div class="muted small deploy-source">{`${delivery.ref}${delivery.commit === null ? '' : `@${delivery.commit.slice(0, 7)}`}`}</div>}
            </td>
            <td data-label="Why">
              <span class="deploy-source">{delivery.reason ?? ''}</span>
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

/** One environment: the deploy it serves, its addresses, and Roll back when there is an earlier deploy. */
function EnvironmentCard(props: DeploysPageProps & { environment: EnvironmentName; path: string }) {
  const { environment } = props;
  const liveId = props.live[environment];
  const live = props.deploys.find((deploy) => deploy.id === liveId);
  const target = props.rollbackTo[environment];
  const hostnames = props.domains[environment] ?? [];
  return (
    <section class="card" aria-labelledby={`env-${environment}`}>
      <h2 id={`env-${environment}`}>{environment}</h2>
      {liveId === null ? (
        <Empty title="Nothing live">
          <p>
            <code>svc deploy --environment {environment}</code> puts a site here.
          </p>
        </Empty>
      ) : (
        <>
          <p class="deploy-live">
            <DeployId id={liveId} />
            {live ? (
              <span class="muted small">
                {live.branch ? <span class="deploy-source">{`${live.branch}${live.commit ? `@${live.commit.slice(0, 7)}` : ''} · `}</span> : null}
                <span class="nowrap">
                  <Time at={live.createdAt} />
                </span>
              </span>
            ) : null}
          </p>
          {hostnames.length > 0 && live?.url ? (
            <ul class="hostnames">
              {hostnames.map((hostname) => (
                <li key={hostname}>
                  <a href={siteAddress(live.url!, hostname)}>
                    <Hostname name={hostname} />
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted small">No domain in service.json: the deploy answers at its preview address.</p>
          )}
          {target === null ? (
            <p class="muted small">No earlier deploy to roll back to.</p>
          ) : (
            <>
              <PostButton action={`${props.path}/rollback`} csrf={props.frame.csrfToken} label={`Roll back ${environment}`} fields={{ environment }} confirm={`Serve ${target} on ${environment} again?`} />
              <p class="muted small rollback-hint">
                Roll back serves <DeployId id={target} /> again.
              </p>
            </>
          )}
        </>
      )}
    </section>
  );
}

/** A deploy id never breaks across lines: it is copied and compared whole. */
function DeployId(props: { id: string }) {
  return <span class="mono deploy-id">{props.id}</span>;
}

/** A hostname that breaks after a dot (or a hyphen) on a narrow screen, never in the middle of a word. */
function Hostname(props: { name: string }) {
  const labels = props.name.split('.');
  return (
    <span class="hostname">
      {labels.map((label, index) =>
        index < labels.length - 1 ? (
          <>
            {label}.<wbr />
          </>
        ) : (
          label
        ),
      )}
    </span>
  );
}

/** The site's address for another of the environment's hostnames: the same scheme and port. */
function siteAddress(url: string, hostname: string): string {
  try {
    const address = new URL(url);
    address.hostname = hostname;
    return address.origin;
  } catch {
    return url;
  }
}
