import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { ServiceError } from '@svc/protocol';
import { checkerFor, ExportLine, type ExportHeaderLine, type SubmissionInfo } from '@svc/protocol/api';

export interface ExportReader {
  readonly header: ExportHeaderLine;
  /** Every submission; throws `server_error` if the stream ends without its `end` line. */
  submissions(): AsyncGenerator<SubmissionInfo>;
}

/**
 * Reads the NDJSON export of the CLI API one line at a time (memory holds one line), checks
 * each line against its schema, and makes sure the stream was not cut short.
 */
export async function readExport(response: Response, apiUrl: string): Promise<ExportReader> {
  if (!response.body) throw broken(apiUrl, 'the answer has no body');
  const lines = createInterface({ input: Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), crlfDelay: Infinity })[Symbol.asyncIterator]();
  const next = async (): Promise<ExportLine | null> => {
    let item: IteratorResult<string>;
    try {
      item = await lines.next();
    } catch (error) {
      throw new ServiceError('network_error', `the export from ${apiUrl} was cut short: ${(error as Error).message}`, undefined, { cause: error });
    }
    if (item.done) return null;
    let value: unknown;
    try {
      value = JSON.parse(item.value);
    } catch {
      throw broken(apiUrl, 'a line is not JSON');
    }
    const problem = checkerFor(ExportLine).firstError(value);
    if (problem !== null) throw broken(apiUrl, problem);
    return value as ExportLine;
  };

  const first = await next();
  if (first?.type !== 'header') throw broken(apiUrl, 'it does not start with its header');
  return {
    header: first,
    async *submissions() {
      for (;;) {
        const line = await next();
        if (line === null) throw new ServiceError('server_error', `the export from ${apiUrl} ended before it was complete; run it again`);
        if (line.type === 'end') return;
        if (line.type !== 'submission') throw broken(apiUrl, 'a second header');
        yield line.submission;
      }
    },
  };
}

function broken(apiUrl: string, problem: string): ServiceError {
  return new ServiceError('server_error', `the export from ${apiUrl} was not understood (${problem})`);
}
