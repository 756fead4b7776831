import { basename } from 'node:path';
import { validate } from '@svc/config';
import { cliPaths, ServiceError } from '@svc/protocol';
import { CreateProjectResponse, WhoamiResponse } from '@svc/protocol/api';
import type { ApiClient } from '../../api/api-client.js';
import type { ContextOf } from '../../command.js';
import type { initCommand } from './commands.js';
import { connect } from '../../credentials/connect.js';
import { canPrompt } from '../../io.js';
import { detectBranch } from '../../project/detect-branch.js';
import { detectFramework, frameworks } from '../../project/detect-framework.js';
import { fileExists, readServiceFileText, serviceFileName, writeServiceFile } from '../../project/service-file.js';
import { Prompter } from '../../prompts.js';

const slugPattern = /^[a-z0-9][a-z0-9-]{0,62}$/;
const slugRule = '1 to 63 lowercase letters, digits and hyphens, starting with a letter or digit';

/** `svc init`: asks (on a terminal) or takes defaults, creates the project, writes service.json. */
export async function runInit({ options, io, out }: ContextOf<typeof initCommand>): Promise<number> {
  if (!options.force && (await readServiceFileText(io.cwd)) !== null) throw fileExists();
  const api = await connect(io);
  const prompter = canPrompt(io, options.yes || options.json) ? new Prompter(io) : null;
  prompter?.intro('svc init');

  const workspace = await chooseWorkspace(api, prompter, options.workspace);
  const directoryName = basename(io.cwd);
  const project = options.project ?? (prompter ? await prompter.text({ message: 'Project name', defaultValue: directoryName }) : directoryName);
  const detected = await detectFramework(io.cwd);
  const framework =
    options.framework ??
    (prompter
      ? await prompter.select({
          message: 'Framework',
          choices: frameworks.map((value) => ({ value, label: value, ...(value === detected ? { hint: 'detected' } : {}) })),
          initialValue: detected,
        })
      : detected);
  const currentBranch = (await detectBranch(io.cwd)) ?? 'main';
  const branch = options.branch ?? (prompter ? await prompter.text({ message: 'Git branch of production', defaultValue: currentBranch }) : currentBranch);

  const config = { workspace, project, framework, environments: { production: { branch } } };
  const checked = validate(JSON.stringify(config));
  if (!checked.ok) {
    const problems = checked.errors.map((error) => `${error.pointer.slice(1)} ${error.message}`).join('; ');
    throw new ServiceError('validation_failed', `cannot create this project: ${problems}`, { errors: checked.errors.map(({ pointer, message }) => ({ pointer, message })) });
  }

  const created = await api.post(cliPaths.projects(), { config }, CreateProjectResponse);
  const file = await writeServiceFile(io.cwd, created.config, options.force === true);
  prompter?.outro(`Wrote ${serviceFileName}`);

  out.result({ ok: true, project: created.project, workspaceCreated: created.workspaceCreated, file, config: created.config }, () =>
    [
      `Created project ${created.project.workspace}/${created.project.project}${created.workspaceCreated ? ` (and workspace ${created.project.workspace})` : ''}.`,
      `Wrote ${serviceFileName} (framework ${created.project.framework}, production branch ${branch}).`,
      'Next: add a form to service.json, e.g. "forms": [{ "slug": "contact", "name": "Contact" }], then run `svc push`.',
    ].join('\n'),
  );
  return 0;
}

async function chooseWorkspace(api: ApiClient, prompter: Prompter | null, flag: string | undefined): Promise<string> {
  if (flag !== undefined) return flag;
  const { token } = await api.get(cliPaths.token(), WhoamiResponse);
  if (prompter) {
    return prompter.text({
      message: 'Workspace',
      defaultValue: token.workspace ?? undefined,
      check: (value) => (slugPattern.test(value) ? undefined : `must be ${slugRule}`),
    });
  }
  if (token.workspace !== null) return token.workspace;
  throw new ServiceError('usage', 'pass --workspace: an admin token belongs to no workspace');
}
