import { sql } from 'kysely';
import { columnKind, type StoreCatalog, type TableInfo } from '../catalog.js';
import type { Db } from '../store.js';

/** The database's own account of the tables of its current schema (pg_catalog). */
export function postgresCatalog(db: Db): StoreCatalog {
  return {
    async tables() {
      const columns = await sql<{ table: string; name: string; type: string; key: number | null }>`
        select c.relname as "table", a.attname as name, format_type(a.atttypid, null) as type,
               array_position(pk.conkey, a.attnum) as key
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
        join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        left join pg_constraint pk on pk.conrelid = c.oid and pk.contype = 'p'
        where c.relkind in ('r', 'p')
        order by c.relname, a.attnum`.execute(db);
      const keys = await sql<{ table: string; references: string }>`
        select distinct c.relname as "table", r.relname as "references"
        from pg_constraint f
        join pg_class c on c.oid = f.conrelid
        join pg_class r on r.oid = f.confrelid
        join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
        where f.contype = 'f'`.execute(db);
      const tables = new Map<string, { columns: TableInfo['columns'][number][]; keyed: { name: string; key: number }[]; references: string[] }>();
      for (const row of columns.rows) {
        const table = tables.get(row.table) ?? { columns: [], keyed: [], references: [] };
        tables.set(row.table, table);
        table.columns.push({ name: row.name, kind: columnKind(row.type) });
        if (row.key !== null) table.keyed.push({ name: row.name, key: Number(row.key) });
      }
      for (const row of keys.rows) if (row.references !== row.table) tables.get(row.table)?.references.push(row.references);
      return [...tables].map(([name, table]) => ({
        name,
        columns: table.columns,
        primaryKey: table.keyed.sort((a, b) => a.key - b.key).map((column) => column.name),
        references: table.references,
      }));
    },
    async resetSequences() {
      // Every sequence owned by a column (serial, identity): on past the column's largest value.
      const owned = await sql<{ sequence: string; table: string; column: string }>`
        select s.oid::regclass::text as sequence, t.oid::regclass::text as "table", a.attname as column
        from pg_class s
        join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
        join pg_class t on t.oid = d.refobjid
        join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
        join pg_namespace n on n.oid = t.relnamespace and n.nspname = current_schema()
        where s.relkind = 'S'`.execute(db);
      for (const row of owned.rows) {
        await sql`select setval(${row.sequence}::regclass, coalesce((select max(${sql.ref(row.column)}) from ${sql.raw(row.table)}), 0) + 1, false)`.execute(db);
      }
    },
  };
}
