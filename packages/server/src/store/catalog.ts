/**
 * What a store's database says about its own tables, read from its catalog (SQLite's
 * pragmas, PostgreSQL's pg_catalog): the tables the migrations made, their columns by kind,
 * primary keys and the tables they reference. Backups and restores work from this, never
 * from a list of table names written by hand (docs/server.md, "Backups and moving").
 */
export interface StoreCatalog {
  /** Every table but SQLite's own (`sqlite_…`), by name. */
  tables(): Promise<TableInfo[]>;
  /**
   * After rows were written with their ids: every sequence behind an identity or serial
   * column moves past the largest value its column holds (PostgreSQL; SQLite does it itself).
   */
  resetSequences(): Promise<void>;
}

/** How a column's values are kept, whatever the backend calls its type. */
export type ColumnKind = 'integer' | 'real' | 'boolean' | 'text' | 'bytes';

export interface ColumnInfo {
  readonly name: string;
  readonly kind: ColumnKind;
}

export interface TableInfo {
  readonly name: string;
  readonly columns: readonly ColumnInfo[];
  /** The primary key's columns in key order (every table of svc has one). */
  readonly primaryKey: readonly string[];
  /** The other tables its foreign keys reference (itself left out). */
  readonly references: readonly string[];
}

/** A backend's declared type as a kind: SQLite's affinity rules, PostgreSQL's type names. */
export function columnKind(declared: string): ColumnKind {
  const type = declared.toLowerCase();
  if (type === 'boolean' || type === 'bool') return 'boolean';
  if (type.includes('int') || type === 'serial' || type === 'bigserial') return 'integer';
  if (type.includes('blob') || type === 'bytea') return 'bytes';
  if (type.includes('real') || type.includes('floa') || type.includes('doub') || type === 'numeric') return 'real';
  return 'text';
}
