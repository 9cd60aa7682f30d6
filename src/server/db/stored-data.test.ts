/**
 * The privacy page lists what the database stores from src/shared/stored-data.ts: this holds
 * that list to the migrated schema, every table and every column, on both databases, so a
 * table or column a migration adds without its line fails here, saying what to add.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORED_DATA, type StoredTable } from '../../shared/stored-data.js';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '../testing/test-database.js';
import { isPostgres, openDatabase, type Db } from './connection.js';
import { migrateToLatest } from './migrate.js';

/** The migrator's own bookkeeping: no data about anyone. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/** The tables FTS5 keeps for the search index (poll_search) on SQLite: the index's own parts, no data of their own. */
const FTS5_SHADOW = /^poll_search_(data|idx|content|docsize|config)$/;

/** Every table of the database (the current schema's, on PostgreSQL) with its columns. */
async function schemaOf(db: Db): Promise<Map<string, string[]>> {
  const { rows } = isPostgres(db)
    ? await sql<{ table_name: string; column_name: string }>`select table_name, column_name
        from information_schema.columns where table_schema = current_schema()
        order by table_name, ordinal_position`.execute(db)
    : await sql<{ table_name: string; column_name: string }>`select m.name as table_name, c.name as column_name
        from sqlite_master m, pragma_table_info(m.name) c
        where m.type = 'table' and m.name not like 'sqlite!_%' escape '!'
        order by m.name, c.cid`.execute(db);
  const tables = new Map<string, string[]>();
  for (const row of rows) {
    if (MIGRATOR_TABLES.has(row.table_name) || FTS5_SHADOW.test(row.table_name)) continue;
    tables.set(row.table_name, [...(tables.get(row.table_name) ?? []), row.column_name]);
  }
  // SQLite's search index is an FTS5 table: its rowid is the poll's id and the index itself is
  // what PostgreSQL keeps as the generated `document` column, so both read as one table.
  const search = tables.get('poll_search');
  if (!isPostgres(db) && search) tables.set('poll_search', ['poll_id', ...search, 'document']);
  return tables;
}

/** What src/shared/stored-data.json lacks, or has too many, each said as the edit that fixes it. */
function storedDataProblems(schema: Map<string, string[]>, listed: readonly StoredTable[]): string[] {
  const file = 'src/shared/stored-data.json';
  const problems: string[] = [];
  const byName = new Map(listed.map((entry) => [entry.table, entry]));
  for (const [table, columns] of schema) {
    const entry = byName.get(table);
    if (!entry) {
      problems.push(
        `Table "${table}" has no line on the privacy page. Add to ${file}:\n` +
          `  { "table": "${table}", "what": "<what a row holds, in plain words>", "why": "<why the site keeps it>", ` +
          `"howLong": "<how long it is kept>", "columns": [${columns.map((c) => `"${c}"`).join(', ')}] },`,
      );
      continue;
    }
    const missing = columns.filter((column) => !entry.columns.includes(column));
    if (missing.length > 0)
      problems.push(
        `Table "${table}" has columns the privacy page does not know: add ${missing.map((c) => `"${c}"`).join(', ')} ` +
          `to its columns in ${file}, and say in its "what" (and "howLong", if it differs) what they hold.`,
      );
    const gone = entry.columns.filter((column) => !columns.includes(column));
    if (gone.length > 0)
      problems.push(`Table "${table}" no longer has ${gone.join(', ')}: remove them from its columns in ${file}.`);
  }
  for (const entry of listed)
    if (!schema.has(entry.table))
      problems.push(`${file} lists a table "${entry.table}" the database does not have: remove its line.`);
  return problems;
}

describe('what the privacy page says is stored', () => {
  it('says exactly what to add for a new table, a new column, and a line left over', () => {
    const listed: StoredTable[] = [
      { table: 'a', what: '', why: '', howLong: '', columns: ['x', 'old'] },
      { table: 'gone', what: '', why: '', howLong: '', columns: ['y'] },
    ];
    const problems = storedDataProblems(
      new Map([
        ['a', ['x', 'added']],
        ['limits_new', ['key', 'hits']],
      ]),
      listed,
    );
    expect(problems).toEqual([
      expect.stringContaining(`add "added" to its columns in src/shared/stored-data.json`),
      'Table "a" no longer has old: remove them from its columns in src/shared/stored-data.json.',
      expect.stringContaining(`{ "table": "limits_new", "what": `),
      'src/shared/stored-data.json lists a table "gone" the database does not have: remove its line.',
    ]);
    expect(problems[2]).toContain(`"columns": ["key", "hits"] },`);
  });

  it('lists each table once, with a what, a why and a how long', () => {
    expect(new Set(STORED_DATA.map((entry) => entry.table)).size).toBe(STORED_DATA.length);
    for (const entry of STORED_DATA) {
      expect(entry.what && entry.why && entry.howLong, entry.table).toBeTruthy();
      expect(new Set(entry.columns).size, entry.table).toBe(entry.columns.length);
    }
  });

  describe.each(testDatabaseKinds())('against the migrated schema (%s)', (kind) => {
    let database: TestDatabase;
    let db: Db;
    beforeAll(async () => {
      database = await createTestDatabase(kind);
      db = openDatabase(database.target);
      await migrateToLatest(db);
    });
    afterAll(async () => {
      await db.destroy();
      await database.drop();
    });

    it('has a line for every table and every column, and none for what is not there', async () => {
      const schema = await schemaOf(db);
      expect(schema.size).toBeGreaterThan(20);
      expect(storedDataProblems(schema, STORED_DATA).join('\n\n')).toBe('');
    });
  });
});
