import pc from 'picocolors';
import type { ServiceError } from '@svc/protocol';
import { printable, terminalSafe } from './format/printable.js';
import type { Io } from './io.js';

type Colors = ReturnType<typeof pc.createColors>;

function colorsFor(stream: { isTTY?: boolean }, env: Io['env']): Colors {
  const enabled = Boolean(stream.isTTY) && env['NO_COLOR'] === undefined && env['TERM'] !== 'dumb';
  return pc.createColors(enabled || env['FORCE_COLOR'] === '1');
}

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
}

/**
 * Where a command's words go. With --json, stdout holds exactly one JSON document; people
 * get text on stdout for data and stderr for everything else, with colours only on a TTY.
 * Every human text passes `terminalSafe` here, so nothing a submitter, a receiver or
 * another token holder wrote can send a terminal escape sequence (docs/cli.md).
 */
export class Output {
  readonly json: boolean;
  readonly color: Colors;
  readonly errColor: Colors;
  private documentWritten = false;

  constructor(
    private readonly io: Io,
    json: boolean,
  ) {
    this.json = json;
    this.color = colorsFor(io.stdout, io.env);
    this.errColor = colorsFor(io.stderr, io.env);
  }

  /** The command's result: a JSON document with --json, else what `human` prints. */
  result(document: unknown, human?: () => string | undefined): void {
    if (this.json) {
      this.writeDocument(document);
      return;
    }
    const text = human?.();
    if (text !== undefined && text !== '') this.io.stdout.write(terminalSafe(text.endsWith('\n') ? text : `${text}\n`));
  }

  /** Human data on stdout; ignored with --json (the result document carries the data). */
  print(text: string): void {
    if (!this.json) this.io.stdout.write(terminalSafe(text.endsWith('\n') ? text : `${text}\n`));
  }

  /** Progress and notes for people: always stderr, so they never corrupt --json output. */
  note(text: string): void {
    this.io.stderr.write(terminalSafe(text.endsWith('\n') ? text : `${text}\n`));
  }

  warn(text: string): void {
    this.note(`${this.errColor.yellow('warning')} ${text}`);
  }

  failure(error: ServiceError): void {
    if (this.json) {
      if (!this.documentWritten) {
        const detail = error.details && Object.keys(error.details).length > 0 ? { details: error.details } : {};
        this.writeDocument({ ok: false, error: { code: error.code, message: error.message, ...detail } });
      }
      return;
    }
    this.io.stderr.write(`${this.errColor.red('error')} ${printable(error.message)}\n`);
  }

  /** Rows as aligned columns; every cell is data, shown with its control characters escaped. */
  table<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string {
    const cells = rows.map((row) => columns.map((column) => printable(column.value(row))));
    const widths = columns.map((column, i) => Math.max(column.header.length, ...cells.map((line) => (line[i] ?? '').length)));
    const render = (line: readonly string[]) =>
      line
        .map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd();
    const header = this.color.bold(render(columns.map((column) => column.header)));
    return [header, ...cells.map(render)].join('\n');
  }

  private writeDocument(document: unknown): void {
    if (this.documentWritten) throw new Error('a --json command wrote two documents');
    this.documentWritten = true;
    this.io.stdout.write(`${JSON.stringify(document)}\n`);
  }
}
