import type SqliteDatabase from 'better-sqlite3';
import type { CompiledQuery, QueryResult } from 'kysely';
import { setBounded } from '../../lib/bounded-map.js';

/** Distinct statements kept prepared; queries with lists of varying length make new texts. */
const maxStatements = 256;

/**
 * Runs Kysely's compiled queries on a better-sqlite3 connection with their statements
 * prepared once and kept, as Kysely's own SQLite connection does not: it prepares every
 * statement again on every run, which cost the delivery worker an eighth of its main
 * thread (bench/README.md). Results are shaped as Kysely's SqliteConnection shapes them.
 * Statements run to completion here (`all`, `run`), so a kept one is never busy.
 */
export class StatementCache {
  private readonly statements = new Map<string, SqliteDatabase.Statement>();

  constructor(private readonly database: SqliteDatabase.Database) {}

  execute<R>(compiled: CompiledQuery): QueryResult<R> {
    const statement = this.prepared(compiled.sql);
    const parameters = compiled.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  private prepared(text: string): SqliteDatabase.Statement {
    const kept = this.statements.get(text);
    if (kept) return kept;
    const statement = this.database.prepare(text);
    setBounded(this.statements, text, statement, maxStatements);
    return statement;
  }
}
