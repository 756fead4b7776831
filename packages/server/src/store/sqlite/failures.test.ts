import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { classifyPostgresFailure } from '../postgres/failures.js';
import { classifySqliteFailure } from './failures.js';

const failureOf = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
};

describe('classifying database failures', () => {
  it('names SQLite unique, primary-key and foreign-key violations, as thrown and as re-thrown by the writer thread', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = on');
    db.exec('create table parent (id text primary key, name text unique); create table child (id text primary key, parent text not null references parent (id))');
    db.prepare('insert into parent values (?, ?)').run('p1', 'one');
    const unique = failureOf(() => db.prepare('insert into parent values (?, ?)').run('p2', 'one'));
    const primary = failureOf(() => db.prepare('insert into parent values (?, ?)').run('p1', 'two'));
    const foreign = failureOf(() => db.prepare('insert into child values (?, ?)').run('c1', 'nobody'));
    expect([unique, primary, foreign].map(classifySqliteFailure)).toEqual(['unique', 'unique', 'foreign_key']);
    const crossedThread = new Error((foreign as Error).message);
    expect(classifySqliteFailure(crossedThread)).toBe('foreign_key');
    expect(classifySqliteFailure(new Error('disk I/O error'))).toBe('other');
    db.close();
  });

  it('names PostgreSQL violations by SQLSTATE', () => {
    expect(classifyPostgresFailure(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe('unique');
    expect(classifyPostgresFailure(Object.assign(new Error('violates foreign key'), { code: '23503' }))).toBe('foreign_key');
    expect(classifyPostgresFailure(Object.assign(new Error('FOREIGN KEY constraint failed'), { code: '57P01' }))).toBe('other');
    expect(classifyPostgresFailure(null)).toBe('other');
  });
});
