import { describe, expect, it } from 'vitest';
import { loadMigrations, pendingMigrations } from './migrations.js';

describe('migrations', () => {
  it('ship numbered from 0001 for both dialects, with the same versions', async () => {
    const sqlite = await loadMigrations('sqlite');
    const postgres = await loadMigrations('postgres');
    expect(sqlite.map((migration) => migration.version)).toEqual(postgres.map((migration) => migration.version));
    expect(sqlite[0]).toMatchObject({ version: 1, name: '0001_initial.sql' });
  });

  it('apply only what the database has not applied', async () => {
    const all = await loadMigrations('sqlite');
    expect(pendingMigrations(all, [])).toEqual(all);
    const [first] = all;
    expect(pendingMigrations(all, [{ version: 1, name: first!.name, checksum: first!.checksum }])).toEqual(all.slice(1));
  });

  it('refuse a database whose applied migration was edited since, or that a newer version migrated', async () => {
    const all = await loadMigrations('sqlite');
    expect(() => pendingMigrations(all, [{ version: 1, name: all[0]!.name, checksum: 'edited' }])).toThrow(/must not be edited/);
    expect(() => pendingMigrations(all, [{ version: 999, name: '0999_future.sql', checksum: 'x' }])).toThrow(/newer version/);
  });
});
