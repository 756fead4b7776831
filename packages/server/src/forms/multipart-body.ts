import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import type { FileStore, StagedFile } from '../store/files/file-store.js';
import type { HoldOptions } from '../store/files/held-files.js';
import { longNameError, longNameMessage, maxFieldNameLength, unstorableFieldErrors } from './field-checks.js';
import type { FormLimits } from './limits.js';

/** A file read from a multipart submission, staged but not yet permanent. */
export interface StagedUpload {
  readonly field: string;
  /** The client's file name, cleaned for display; never used as a path. */
  readonly name: string;
  readonly contentType: string;
  readonly staged: StagedFile;
  /** The file's first bytes (up to 16), to recognise its format by signature. */
  readonly head: Uint8Array;
}

export interface MultipartSubmission {
  readonly fields: Record<string, unknown>;
  readonly uploads: StagedUpload[];
}

const limitCodes = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT']);

/**
 * Reads a multipart body: text parts become fields (a name sent twice becomes a list),
 * file parts are staged by content hash (small ones held in memory with `hold`). Over any
 * limit the whole request is refused with 413 and every staged file is dropped; a
 * malformed body is a 400.
 */
export async function readMultipart(request: FastifyRequest, files: FileStore, limits: FormLimits, hold?: HoldOptions): Promise<MultipartSubmission> {
  const fields = new Map<string, unknown>();
  const uploads: StagedUpload[] = [];
  // The limit is on the whole body as it arrives: bytes outside the parts (preamble, part
  // headers, epilogue) count too. A declared length over it is refused before anything is read.
  const body = new BodyMeter(limits.multipartBytes);
  body.check(Number(request.headers['content-length'] ?? 0));
  try {
    const parts = request.parts({
      limits: {
        fields: limits.fields,
        files: limits.files,
        fileSize: limits.fileBytes,
        fieldSize: limits.jsonBodyBytes,
        // Long enough to see names over the limit of field-checks.ts, which answers 422.
        fieldNameSize: maxFieldNameLength * 4 + 4,
        parts: limits.fields + limits.files,
      },
    })[Symbol.asyncIterator]();
    // The first step starts the parser (the body is piped into it synchronously); the body's
    // bytes are counted from that moment on.
    const first = parts.next();
    request.raw.on('data', body.count);
    for (let step = await first; !step.done; step = await parts.next()) {
      const part = step.value;
      if (part.type === 'field') {
        if (part.fieldnameTruncated) throw longFieldName(part.fieldname);
        if (part.valueTruncated) throw tooLarge('a field value is over its size limit');
        body.check();
        addField(fields, part.fieldname, part.value);
        continue;
      }
      if (part.fieldname.length > maxFieldNameLength) throw longFieldName(part.fieldname);
      // Text parts are checked with the other fields (field-checks.ts); a file's field name only here.
      const unstorable = unstorableFieldErrors({ [part.fieldname]: '' });
      if (Object.keys(unstorable).length > 0) throw new ServiceError('validation_failed', Object.values(unstorable).join('; '), { errors: unstorable });
      const { staged, head } = await stageFile(files, part.file, body, hold);
      if (part.file.truncated) {
        await staged.discard();
        throw tooLarge(`a file is larger than ${limits.fileBytes} bytes`);
      }
      // Browsers send an empty, nameless part for a file input left empty.
      const fileName = (part.filename as string | undefined) ?? '';
      if (staged.size === 0 && fileName === '') {
        await staged.discard();
        continue;
      }
      uploads.push({ field: part.fieldname, name: cleanFileName(fileName), contentType: cleanContentType(part.mimetype), staged, head });
    }
    // Not even the closing delimiter, which every multipart body has (RFC 2046); the parser
    // would take it for an empty form.
    if (body.bytes === 0) throw new ServiceError('invalid_body', 'the multipart body is empty');
    body.check();
  } catch (error) {
    await Promise.all(uploads.map((upload) => upload.staged.discard()));
    throw asRequestError(error);
  } finally {
    request.raw.off('data', body.count);
  }
  return { fields: Object.fromEntries(fields), uploads };
}

/** The bytes of the request body received so far, against the multipart limit. */
class BodyMeter {
  bytes = 0;

  constructor(private readonly max: number) {}

  readonly count = (chunk: Buffer): void => {
    this.bytes += chunk.byteLength;
  };

  /** Throws 413 once the body (or the length it declares) is over the limit. */
  check(bytes = this.bytes): void {
    if (bytes > this.max) throw tooLarge(`a multipart submission carries at most ${this.max} bytes`);
  }
}

async function stageFile(files: FileStore, stream: Readable, body: BodyMeter, hold: HoldOptions | undefined): Promise<{ staged: StagedFile; head: Uint8Array }> {
  let head = new Uint8Array(0);
  async function* checked(): AsyncGenerator<Uint8Array> {
    for await (const chunk of stream as AsyncIterable<Uint8Array>) {
      body.check();
      if (head.length < headBytes) head = Uint8Array.from([...head, ...chunk.subarray(0, headBytes - head.length)]);
      yield chunk;
    }
  }
  const staged = await files.stage(checked(), hold);
  return { staged, head };
}

const headBytes = 16;

function addField(fields: Map<string, unknown>, name: string, value: unknown): void {
  const existing = fields.get(name);
  if (existing === undefined) fields.set(name, value);
  else if (Array.isArray(existing)) existing.push(value);
  else fields.set(name, [existing, value]);
}

function longFieldName(name: string): ServiceError {
  return new ServiceError('validation_failed', longNameMessage, { errors: longNameError(name) });
}

function tooLarge(message: string): ServiceError {
  return new ServiceError('payload_too_large', message);
}

/** Limits become 413; whatever else the multipart parser throws means a malformed body. */
function asRequestError(error: unknown): unknown {
  if (error instanceof ServiceError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && limitCodes.has(code)) return tooLarge('the submission is over a size or count limit');
  if (isParserError(error)) return new ServiceError('invalid_body', 'the multipart body is malformed', undefined, { cause: error });
  return error;
}

function isParserError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('FST_')) return true;
  // busboy reports malformed input with plain Errors carrying these messages.
  return /unexpected end of multipart data|boundary not found|boundary required|needle|content-type/i.test(error.message);
}

export function cleanFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 255);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'file' : cleaned;
}

function cleanContentType(type: string): string {
  return /^[\w.+-]+\/[\w.+-]+$/.test(type) && type.length <= 127 ? type.toLowerCase() : 'application/octet-stream';
}
