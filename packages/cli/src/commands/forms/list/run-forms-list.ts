import { cliPaths } from '@svc/protocol';
import { ListFormsResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';
import { formsTable } from '../../../format/forms-table.js';
import { resolveProject } from '../../../project/project-ref.js';

export interface FormsListFlags {
  workspace?: string;
  project?: string;
}

export async function runFormsList({ options, io, out }: CommandContext<FormsListFlags>): Promise<number> {
  const ref = await resolveProject(io, options);
  const api = await connect(io);
  const result = await api.get(cliPaths.forms(ref.workspace, ref.project), ListFormsResponse);
  out.result(result, () =>
    result.forms.length === 0
      ? `${ref.workspace}/${ref.project} has no forms yet: add one to service.json and run \`svc push\`.`
      : formsTable(out, result.forms, result.defaultRateLimit),
  );
  return 0;
}
