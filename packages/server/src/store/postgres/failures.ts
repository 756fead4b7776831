import { causes, storageFailure, type DependencyFailure } from '../dependency-failure.js';
import type { FailureKind } from '../store.js';

/** PostgreSQL's constraint failures by SQLSTATE: 23505 unique_violation, 23503 foreign_key_violation. */
export function classifyPostgresFailure(error: unknown): FailureKind {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '23505') return 'unique';
  if (code === '23503') return 'foreign_key';
  return 'other';
}

/** SQLSTATE classes and codes that say the server, not the statement, failed. */
function describeSqlState(code: string): string | null {
  if (code.startsWith('08')) return 'the connection failed';
  if (code === '53100') return 'the database server\'s disk is full';
  if (code.startsWith('53')) return 'the database server is out of resources';
  if (code === '57014') return 'no answer within --database-timeout';
  if (code.startsWith('57P')) return 'the database server is shutting down or restarting';
  if (code === '25006') return 'the database is read-only (a standby?)';
  if (code.startsWith('58')) return 'the database server had an I/O error';
  return null;
}

/** What node-postgres and Node's sockets say when the server cannot be reached or went away. */
const connectionMessages = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout/,
  /not queryable/,
  /^Client was closed and is not queryable/,
];
const socketErrnos = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * The database unreachable, restarting, read-only, out of disk or past the timeout; the
 * disk under the data dir (the upload spool) failing; or null. `databasePort` tells socket
 * errors of the database apart from those of anything else (a webhook receiver, SMTP).
 */
export function postgresDependencyFailure(error: unknown, dataDir: string, databasePort: number): DependencyFailure | null {
  for (const failure of causes(error)) {
    const { code, message, port, severity } = failure as { code?: unknown; message?: unknown; port?: unknown; severity?: unknown };
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) {
      // FATAL ends the session: the server refused or dropped the connection (a database not
      // accepting connections, authentication, too many clients), whatever the SQLSTATE.
      const reason = describeSqlState(code) ?? (severity === 'FATAL' || severity === 'PANIC' ? 'the database server refused the connection' : null);
      if (reason) return { dependency: 'database', reason: `${reason} (${code}${typeof message === 'string' ? `: ${message}` : ''})` };
    }
    if (typeof code === 'string' && socketErrnos.has(code) && (port === undefined || port === databasePort)) {
      return { dependency: 'database', reason: `the database server cannot be reached (${code})` };
    }
    if (typeof message === 'string' && connectionMessages.some((pattern) => pattern.test(message))) {
      return { dependency: 'database', reason: message };
    }
  }
  return storageFailure(error, dataDir);
}
