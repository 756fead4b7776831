import { resolve } from 'node:path';
import { cliPaths, ServiceError } from '@svc/protocol';
import type { ContextOf } from '../../command.js';
import { readExport } from '../../export/export-stream.js';
import { fileSink, isBrokenPipe, streamSink } from '../../export/output-sink.js';
import { dataForTerminal } from '../../format/printable.js';
import { ProgressLine } from '../../export/progress-line.js';
import { SubmissionCsv } from '@svc/protocol/api';
import { openProject } from '../../server-call.js';
import type { submissionsExport } from './commands.js';
import { requireForm } from './list.js';

/** `svc submissions export`: from the server's NDJSON stream to CSV or NDJSON, a line at a time. */
export async function exportSubmissions(context: ContextOf<typeof submissionsExport>): Promise<number> {
  const { options, io, out } = context;
  const form = requireForm(options.form);
  if (out.json && options.output === undefined) {
    throw new ServiceError('usage', '--json needs --output FILE: stdout holds the JSON summary, not the export');
  }
  const { api, ref } = await openProject(context);
  const state = options.spam ? 'spam' : 'inbox';
  const reader = await readExport(await api.stream(cliPaths.export(ref.workspace, ref.project, form), { state }), api.apiUrl);

  const path = options.output === undefined ? null : resolve(io.cwd, options.output);
  const sink = path === null ? streamSink(io.stdout) : fileSink(path);
  // A terminal runs the escape sequences that submitted data may hold: there, they are shown escaped.
  const shown = path === null && io.stdout.isTTY === true ? dataForTerminal : (text: string) => text;
  const progress = new ProgressLine(io.stderr, reader.header.count);
  const csv = options.format === 'csv' ? new SubmissionCsv(reader.header, { raw: options.raw === true }) : null;
  let count = 0;
  try {
    if (csv) await sink.write(shown(csv.headerRecord()));
    for await (const submission of reader.submissions()) {
      await sink.write(shown(csv ? csv.record(submission) : `${JSON.stringify(submission)}\n`));
      count += 1;
      progress.update(count);
    }
    await sink.commit();
  } catch (error) {
    await sink.abort();
    if (path === null && isBrokenPipe(error)) return 0;
    throw error;
  } finally {
    progress.finish();
  }

  const summary = { ok: true, form, state, format: options.format, count, file: path };
  out.result(summary);
  if (!out.json) out.note(`Exported ${count} ${count === 1 ? 'submission' : 'submissions'} from the ${state} of ${form}${path === null ? '' : ` to ${options.output}`}.`);
  return 0;
}
