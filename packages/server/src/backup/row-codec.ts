import type { ColumnInfo, ColumnKind } from '../store/catalog.js';

/**
 * Rows as lines of NDJSON, the same from either backend and into either: an object of
 * column → value. Integers are JSON numbers while they fit a double exactly, else strings
 * of digits (a BIGINT past 2^53 is never rounded); bytes are base64; text, JSON documents
 * included, is kept exactly as stored. A value goes back by the kind of its target column.
 */
export function encodeRow(row: Readonly<Record<string, unknown>>): string {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) out[column] = encodeValue(value, column);
  return JSON.stringify(out);
}

function encodeValue(value: unknown, column: string): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`column ${column} holds ${value}, which JSON cannot carry`);
    return value;
  }
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  throw new Error(`column ${column} holds a value of type ${typeof value}`);
}

/** A line of a table's NDJSON as the object it is. */
export function parseRow(line: string, table: string): Record<string, unknown> {
  const row = JSON.parse(line) as unknown;
  if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new Error(`a line of table ${table} is not a JSON object`);
  return row as Record<string, unknown>;
}

/** A row's values in the order of `columns`; throws when its columns are not exactly those. */
export function decodeRow(record: Readonly<Record<string, unknown>>, columns: readonly ColumnInfo[], table: string): unknown[] {
  const names = Object.keys(record);
  if (names.length !== columns.length || !columns.every((column) => Object.hasOwn(record, column.name))) {
    throw new Error(`the rows of table ${table} have the columns ${names.join(', ')}, the table here ${columns.map((column) => column.name).join(', ')}`);
  }
  return columns.map((column) => decodeValue(record[column.name], column.kind, `${table}.${column.name}`));
}

export function decodeValue(value: unknown, kind: ColumnKind, where: string): unknown {
  if (value === null) return null;
  switch (kind) {
    case 'integer':
      if (typeof value === 'number' && Number.isInteger(value)) return value;
      if (typeof value === 'string' && /^-?\d{1,20}$/.test(value)) return BigInt(value);
      if (typeof value === 'boolean') return value ? 1 : 0;
      break;
    case 'real':
      if (typeof value === 'number') return value;
      break;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 0 || value === 1) return value === 1;
      break;
    case 'text':
      if (typeof value === 'string') return value;
      break;
    case 'bytes':
      if (typeof value === 'string') return Buffer.from(value, 'base64');
      break;
  }
  throw new Error(`${where} holds ${JSON.stringify(value)?.slice(0, 40)}, which is not a value of a ${kind} column`);
}
