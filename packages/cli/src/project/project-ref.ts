import { ServiceError } from '@svc/protocol';
import type { Io } from '../io.js';
import { readServiceFileText, serviceFileName } from './service-file.js';

export interface ProjectRef {
  readonly workspace: string;
  readonly project: string;
}

export interface ProjectFlags {
  workspace?: string;
  project?: string;
}

/**
 * The project a command acts on: `--workspace` and `--project` when given (they win),
 * else `workspace` and `project` of ./service.json. Neither: `not_linked`.
 */
export async function resolveProject(io: Io, flags: ProjectFlags): Promise<ProjectRef> {
  if (flags.workspace !== undefined && flags.project !== undefined) return { workspace: flags.workspace, project: flags.project };
  const text = await readServiceFileText(io.cwd);
  const fromFile = text === null ? {} : identityIn(text);
  const workspace = flags.workspace ?? fromFile.workspace;
  const project = flags.project ?? fromFile.project;
  if (workspace !== undefined && project !== undefined) return { workspace, project };
  const missing = [workspace === undefined ? 'workspace' : null, project === undefined ? 'project' : null].filter((name) => name !== null);
  const where =
    text === null
      ? `there is no ${serviceFileName} here`
      : `${serviceFileName} has no usable ${missing.join(' or ')} (check it with \`svc validate\`)`;
  throw new ServiceError('not_linked', `no project: ${where}; run the command in the project's directory or pass ${missing.map((name) => `--${name}`).join(' and ')}`);
}

function identityIn(text: string): { workspace?: string; project?: string } {
  try {
    const value = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as Record<string, unknown> | null;
    const workspace = value?.['workspace'];
    const project = value?.['project'];
    return {
      ...(typeof workspace === 'string' && workspace !== '' ? { workspace } : {}),
      ...(typeof project === 'string' && project !== '' ? { project } : {}),
    };
  } catch {
    return {};
  }
}
