import { randomBytes } from 'node:crypto';

/** The two request shapes the benchmark sends: a JSON submission and a multipart one with a file. */
export type LoadShape = 'json' | 'multipart';

export const jsonBody = JSON.stringify({
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello! I would like a quote for a website with a contact form and a newsletter sign-up.',
});

export const fileBytes = 100 * 1024;

/**
 * A multipart body with three text fields and one 100 KiB file. The file's first 24 bytes are
 * a slot the load generator overwrites per request (see `stampFile`), so every stored file is
 * distinct and none is skipped as already stored.
 */
export function multipartTemplate(): { body: Buffer; contentType: string; stampAt: number } {
  const boundary = `----svcbench${randomBytes(8).toString('hex')}`;
  const fields = { name: 'Ada Lovelace', email: 'ada@example.com', message: 'Please find my brief attached.' };
  const head = Object.entries(fields)
    .map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join('');
  const fileHead = `--${boundary}\r\ncontent-disposition: form-data; name="brief"; filename="brief.txt"\r\ncontent-type: text/plain\r\n\r\n`;
  const file = Buffer.alloc(fileBytes);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789 \n';
  for (let i = 0; i < file.length; i++) file[i] = alphabet.charCodeAt((i * 7919) % alphabet.length);
  const tail = `\r\n--${boundary}--\r\n`;
  const body = Buffer.concat([Buffer.from(head + fileHead), file, Buffer.from(tail)]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, stampAt: Buffer.byteLength(head + fileHead) };
}

/** Writes a 24-character tag into the file slot of a copy of the template. */
export function stampFile(template: Buffer, at: number, tag: string): Buffer {
  const copy = Buffer.from(template);
  copy.write(tag.padEnd(24, '.').slice(0, 24), at, 'latin1');
  return copy;
}

/** A `form.submission.created` event body as the outbox holds it, for the delivery benches. */
export function submissionEventPayload(form: { workspace: string; project: string; endpointId: string }): string {
  return JSON.stringify({
    id: 'evt_bench',
    type: 'form.submission.created',
    createdAt: new Date().toISOString(),
    workspace: form.workspace,
    project: form.project,
    data: { form: { id: form.endpointId, slug: 'contact', name: null }, submission: { id: 'sub_bench', fields: JSON.parse(jsonBody) as unknown, files: [], createdAt: new Date().toISOString() } },
  });
}
