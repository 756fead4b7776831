import { resolve } from 'node:path';
import { validate } from '@svc/config';
import { cliPaths, errorCodes, ServiceError } from '@svc/protocol';
import { ApplyConfigResponse } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import type { pushCommand } from './commands.js';
import { connect } from '../../credentials/connect.js';
import { formatChanges } from '../../format/changes.js';
import { formsTable } from '../../format/forms-table.js';
import { canPrompt } from '../../io.js';
import { serviceFileName } from '../../project/service-file.js';
import { Prompter } from '../../prompts.js';
import { widgetPlaces } from '../pinpoints/run.js';
import { readConfigText } from './read-config-text.js';
import { reportInvalid } from './validate.js';

/** `svc push`: validate locally (the same report as `svc validate`), then apply. */
export async function runPush({ options, io, out }: ContextOf<typeof pushCommand>): Promise<number> {
  const text = await readConfigText(resolve(io.cwd, serviceFileName), serviceFileName, 'run the command in the project directory (`svc init` or `svc link` write one)');
  const checked = validate(text);
  if (!checked.ok) {
    reportInvalid(out, serviceFileName, checked.errors);
    return errorCodes.config_invalid.exit;
  }
  const { config } = checked;
  const workspace = options.workspace ?? config.workspace;
  const project = options.project ?? config.project;
  const api = await connect(io);
  const path = cliPaths.config(workspace, project);
  const prune = options.prune === true;
  const dryRun = options.dryRun === true;

  if (prune && !dryRun && canPrompt(io, options.yes || options.json)) {
    const preview = await api.put(path, { config, prune: true, dryRun: true }, ApplyConfigResponse);
    if (preview.prunedForms.length > 0) {
      const doomed = preview.prunedForms.map((form) => `${form.slug} (${form.submissions} submissions)`).join(', ');
      if (!(await new Prompter(io).confirm(`Delete ${doomed} from ${workspace}/${project}? This cannot be undone.`))) {
        throw new ServiceError('cancelled', 'cancelled; nothing was changed');
      }
    }
  }

  const applied = await api.put(path, { config, prune, dryRun }, ApplyConfigResponse);
  // Where the Pinpoints widget shows, as the file just applied says (docs/pinpoints.md).
  const enabled = { production: config.pinpoints?.production ?? false, staging: config.pinpoints?.staging ?? true, development: config.pinpoints?.development ?? true };
  const result = { ...applied, pinpoints: { enabled } };
  out.result(result, () => {
    const where = `${result.project.workspace}/${result.project.project}`;
    const lines: string[] = [];
    if (!result.changed) lines.push(`${where} is up to date: nothing to change.`);
    else lines.push(dryRun ? `Would change ${where} (dry run: nothing was changed):` : `Applied ${serviceFileName} to ${where}:`, formatChanges(out, result.changes));
    if (result.forms.length > 0) lines.push('', formsTable(out, result.forms));
    lines.push('', `Pinpoints widget: ${widgetPlaces(enabled, Object.keys(config.environments))} (\`svc pinpoints snippet\` prints the tag).`);
    return lines.join('\n');
  });
  if (!out.json && result.keptForms.length > 0) {
    const slugs = result.keptForms.map((form) => form.slug).join(', ');
    const count = result.keptForms.length;
    out.warn(
      `${count} ${count === 1 ? 'form is' : 'forms are'} on the server but not in ${serviceFileName}, kept with ${count === 1 ? 'its' : 'their'} submissions: ${slugs}. ` +
        'Add them back, or delete them with `svc push --prune`.',
    );
  }
  return 0;
}
