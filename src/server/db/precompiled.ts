/**
 * A Kysely query built and compiled once per database, then run many times with new values.
 * Kysely builds and compiles every query on every call, which for the statements on the hot
 * path (casting a vote, finding a voter's choice) costs more than SQLite takes to run them.
 *
 * `build` is called once with placeholder arguments; every compiled parameter that is one of
 * them is replaced by the real argument on each run. So each argument must reach the query as
 * exactly one parameter, unchanged: no arithmetic on it, no arrays (`in` lists change arity).
 */
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

type Slot = { argument: number } | { constant: unknown };

const placeholder = (index: number) => `\u0000precompiled-argument-${index}\u0000`;

export function precompiled<DB, A extends unknown[], R>(
  arity: A['length'],
  build: (db: Kysely<DB>, ...args: A) => Compilable<R>,
): (db: Kysely<DB>, ...args: A) => Promise<R[]> {
  const compiledFor = new WeakMap<Kysely<DB>, { sql: string; slots: Slot[] }>();

  function compile(db: Kysely<DB>) {
    const placeholders = Array.from({ length: arity }, (_, i) => placeholder(i));
    const compiled = build(db, ...(placeholders as A)).compile();
    const slots: Slot[] = compiled.parameters.map((value) => {
      const argument = typeof value === 'string' ? placeholders.indexOf(value) : -1;
      return argument === -1 ? { constant: value } : { argument };
    });
    const used = new Set(slots.flatMap((slot) => ('argument' in slot ? [slot.argument] : [])));
    if (used.size !== arity) {
      throw new Error(`A precompiled query uses ${used.size} of its ${arity} arguments as plain parameters.`);
    }
    return { sql: compiled.sql, slots };
  }

  return async (db, ...args) => {
    let query = compiledFor.get(db);
    if (!query) compiledFor.set(db, (query = compile(db)));
    const parameters = query.slots.map((slot) => ('argument' in slot ? args[slot.argument] : slot.constant));
    const result = await db.executeQuery<R>(CompiledQuery.raw(query.sql, parameters));
    return result.rows;
  };
}
