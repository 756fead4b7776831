import { cliPaths, ServiceError } from '@svc/protocol';
import { ListProjectsResponse, ProjectConfigResponse } from '@svc/protocol/api';
import type { ApiClient } from '../../api/api-client.js';
import type { ContextOf } from '../../command.js';
import type { linkCommand } from './commands.js';
import { connect } from '../../credentials/connect.js';
import { canPrompt } from '../../io.js';
import type { ProjectRef } from '../../project/project-ref.js';
import { fileExists, readServiceFileText, serviceFileName, writeServiceFile } from '../../project/service-file.js';
import { Prompter } from '../../prompts.js';

/** `svc link`: service.json from the project's state on the server. */
export async function runLink({ options, io, out }: ContextOf<typeof linkCommand>): Promise<number> {
  if (!options.force && (await readServiceFileText(io.cwd)) !== null) throw fileExists();
  const api = await connect(io);
  const prompter = canPrompt(io, options.yes || options.json) ? new Prompter(io) : null;
  const ref = await chooseProject(api, prompter, options);

  const { config } = await api.get(cliPaths.config(ref.workspace, ref.project), ProjectConfigResponse);
  const file = await writeServiceFile(io.cwd, config, options.force === true);
  out.result({ ok: true, project: ref, file, config }, () => `Linked to ${ref.workspace}/${ref.project}: wrote ${serviceFileName}.`);
  return 0;
}

async function chooseProject(api: ApiClient, prompter: Prompter | null, flags: { readonly workspace?: string | undefined; readonly project?: string | undefined }): Promise<ProjectRef> {
  if (flags.workspace !== undefined && flags.project !== undefined) return { workspace: flags.workspace, project: flags.project };
  if (!prompter) throw new ServiceError('usage', 'pass --workspace and --project (or run on a terminal to pick the project)');
  const { projects } = await api.get(cliPaths.projects(), ListProjectsResponse, { workspace: flags.workspace });
  const candidates = projects.filter((project) => flags.project === undefined || project.project === flags.project);
  if (candidates.length === 0) throw new ServiceError('not_found', 'no project to link to with this token; create one with `svc init`');
  const key = await prompter.select({
    message: 'Project to link to',
    choices: candidates.map((project, index) => ({ value: String(index), label: `${project.workspace}/${project.project}`, hint: project.framework })),
  });
  const chosen = candidates[Number(key)];
  if (!chosen) throw new ServiceError('cancelled', 'no project was chosen');
  return { workspace: chosen.workspace, project: chosen.project };
}
