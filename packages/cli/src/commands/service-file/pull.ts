import { cliPaths } from '@svc/protocol';
import { ProjectConfigResponse } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import type { pullCommand } from './commands.js';
import { connect } from '../../credentials/connect.js';
import { resolveProject } from '../../project/project-ref.js';
import { readServiceFileText, serviceFileName, serviceFilePath, serviceFileText, writeServiceFile } from '../../project/service-file.js';

/** `svc pull`: service.json from the server, in the schema's key order. */
export async function runPull({ options, io, out }: ContextOf<typeof pullCommand>): Promise<number> {
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const { config } = await api.get(cliPaths.config(ref.workspace, ref.project), ProjectConfigResponse);

  const before = await readServiceFileText(io.cwd);
  const localSchema = before === null ? undefined : schemaOf(before);
  const document = localSchema === undefined ? config : { ...config, $schema: localSchema };
  const changed = before !== serviceFileText(document);
  const file = changed ? await writeServiceFile(io.cwd, document, true) : serviceFilePath(io.cwd);

  out.result({ ok: true, project: ref, changed, file, config: document }, () =>
    changed ? `Wrote ${serviceFileName} from ${ref.workspace}/${ref.project}.` : `${serviceFileName} already matches ${ref.workspace}/${ref.project}.`,
  );
  return 0;
}

/** The `$schema` of the current file, kept so that a local copy of the schema stays in use. */
function schemaOf(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as Record<string, unknown> | null;
    return typeof value?.['$schema'] === 'string' ? value['$schema'] : undefined;
  } catch {
    return undefined;
  }
}
