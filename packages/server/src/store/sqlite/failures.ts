import type { FailureKind } from '../store.js';

/**
 * SQLite's constraint failures by their extended result codes; errors that crossed the
 * submission thread arrive as plain errors with the message only, so the message decides
 * for those.
 */
export function classifySqliteFailure(error: unknown): FailureKind {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || /^(UNIQUE|PRIMARY KEY) constraint failed/.test(message)) return 'unique';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /FOREIGN KEY constraint failed/.test(message)) return 'foreign_key';
  return 'other';
}
