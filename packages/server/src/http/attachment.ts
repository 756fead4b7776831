import type { FastifyReply } from 'fastify';
import type { SubmissionFileDownload } from '../operations/submission-files.js';

/** A file name safe in `content-disposition`: ASCII fallback plus the exact name (RFC 6266). */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'file';
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** A user's file as a download: always an attachment, never sniffed, never rendered inline. */
export function sendAttachment(reply: FastifyReply, file: SubmissionFileDownload): FastifyReply {
  return reply
    .header('content-disposition', attachmentDisposition(file.name))
    .header('x-content-type-options', 'nosniff')
    .header('content-length', String(file.size))
    .type(/^[\w.+-]+\/[\w.+-]+$/.test(file.contentType) ? file.contentType : 'application/octet-stream')
    .send(file.content);
}
