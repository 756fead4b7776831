import type { DeployInfo, EnvironmentName, ListDeploysResponse } from '@svc/protocol/api';
import { formatBytes } from '../../lib/format-bytes.js';
import { Badge, DataTable, Empty, Notice, PostButton, Time, type Tone } from './components.js';
import { ProjectNav, Shell } from './layout.js';
import { projectCrumbs, projectPath, type ProjectPageBase } from './overview-page.js';

export interface DeploysPageProps extends ProjectPageBase {
  readonly deploys: readonly DeployInfo[];
  readonly live: ListDeploysResponse['live'];
  /** The project's environments, from service.json. */
  readonly environments: readonly EnvironmentName[];
  readonly notice?: string;
}

const stateTones: Record<DeployInfo['state'], Tone> = { live: 'ok', uploading: 'warn', superseded: 'neutral', failed: 'bad' };

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
      {props.notice ? <Notice tone="ok">{props.notice}</Notice> : null}
      <div class="grid">
        {props.environments.map((environment) => {
          const live = props.deploys.find((deploy) => deploy.id === props.live[environment]);
          return (
            <section class="card" key={environment} aria-labelledby={`env-${environment}`}>
              <h2 id={`env-${environment}`}>{environment}</h2>
              {props.live[environment] === null ? (
                <Empty title="Nothing live">
                  <p>
                    <code>svc deploy --environment {environment}</code> puts a site here.
                  </p>
                </Empty>
              ) : (
                <>
                  <p class="mono small">{props.live[environment]}</p>
                  {live?.url ? (
                    <p>
                      <a href={live.url}>{live.url}</a>
                    </p>
                  ) : null}
                  <PostButton action={`${path}/rollback`} csrf={csrf} label={`Roll back ${environment}`} fields={{ environment }} confirm={`Serve the deploy before this one on ${environment}?`} />
                </>
              )}
            </section>
          );
        })}
      </div>
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
          <DataTable headers={['Deploy', 'Environment', 'State', 'Files', 'Created', '']}>
            {props.deploys.map((deploy) => (
              <tr key={deploy.id}>
                <td data-label="Deploy">
                  <span class="mono small">{deploy.id}</span>
                  <br />
                  <a class="small" href={deploy.previewUrl}>
                    Preview
                  </a>
                  {deploy.branch ? <span class="muted small">{` · ${deploy.branch}${deploy.commit ? `@${deploy.commit.slice(0, 7)}` : ''}`}</span> : null}
                </td>
                <td data-label="Environment">{deploy.environment}</td>
                <td data-label="State">
                  <Badge tone={stateTones[deploy.state]}>{deploy.state === 'live' ? `live on ${deploy.liveIn.join(', ')}` : deploy.state}</Badge>
                  {deploy.error ? <div class="muted small">{deploy.error}</div> : null}
                </td>
                <td data-label="Files">
                  {deploy.files} <span class="muted small">({formatBytes(deploy.bytes)})</span>
                </td>
                <td data-label="Created">
                  <Time at={deploy.createdAt} />
                  {deploy.createdBy ? <div class="muted small">by {deploy.createdBy}</div> : null}
                </td>
                <td data-label="">
                  {deploy.state === 'live' || deploy.state === 'superseded' ? (
                    <div class="action-bar start">
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
