import type { ProjectSummary } from '@svc/protocol/api';
import { Cell, DataTable, Empty, Time } from './components.js';
import { auditPath } from './audit-page.js';
import { Shell, type PageFrame } from './layout.js';

/** `auditLogs`: the workspaces whose audit log the session may read, so the page links them. */
export function ProjectsPage(props: { frame: PageFrame; projects: readonly ProjectSummary[]; auditLogs: readonly string[] }) {
  const byWorkspace = new Map<string, ProjectSummary[]>();
  for (const project of props.projects) byWorkspace.set(project.workspace, [...(byWorkspace.get(project.workspace) ?? []), project]);
  return (
    <Shell frame={props.frame} title="Projects" crumbs={[{ label: 'Projects' }]}>
      <div class="page-head">
        <div>
          <h1>Projects</h1>
          <p class="lead">Every project you can see, by workspace.</p>
        </div>
      </div>
      {props.projects.length === 0 ? (
        <div class="card">
          <Empty title="No projects yet">
            <p>
              In your site's directory, run <code>svc init</code> to create a project, then <code>svc push</code> to add its forms.
            </p>
          </Empty>
        </div>
      ) : (
        [...byWorkspace].map(([workspace, projects]) => (
          <section class="card" key={workspace} aria-labelledby={`ws-${workspace}`}>
            <div class="section-head">
              <h2 id={`ws-${workspace}`}>{workspace}</h2>
              <span class="workspace-links">
                <a href={`/settings/${encodeURIComponent(workspace)}/members`}>Members</a>
                {props.auditLogs.includes(workspace) ? <a href={auditPath(workspace)}>Audit log</a> : null}
              </span>
            </div>
            <DataTable headers={['Project', 'Framework', 'Updated']}>
              {projects.map((project) => (
                <tr key={project.project}>
                  <Cell>
                    <a href={`/settings/${encodeURIComponent(workspace)}/${encodeURIComponent(project.project)}`}>{project.project}</a>
                  </Cell>
                  <Cell label="Framework">{project.framework}</Cell>
                  <Cell label="Updated">
                    <Time at={project.updatedAt} />
                  </Cell>
                </tr>
              ))}
            </DataTable>
          </section>
        ))
      )}
    </Shell>
  );
}
