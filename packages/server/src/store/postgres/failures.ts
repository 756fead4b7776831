import type { FailureKind } from '../store.js';

/** PostgreSQL's constraint failures by SQLSTATE: 23505 unique_violation, 23503 foreign_key_violation. */
export function classifyPostgresFailure(error: unknown): FailureKind {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '23505') return 'unique';
  if (code === '23503') return 'foreign_key';
  return 'other';
}
