/** The only place SQL about profile answers lives. */
import type { Db } from '../db/connection.js';

/** This voter's answers, by dimension. */
export async function findProfileAnswers(db: Db, voterId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('profile_answers')
    .select(['dimension', 'group_value'])
    .where('voter_id', '=', voterId)
    .execute();
  return new Map(rows.map((row) => [row.dimension, row.group_value]));
}

/** Sets one answer, or clears it (null). */
export async function setProfileAnswer(
  db: Db,
  voterId: string,
  dimension: string,
  value: string | null,
  now: Date,
): Promise<void> {
  if (value === null) {
    await db.deleteFrom('profile_answers').where('voter_id', '=', voterId).where('dimension', '=', dimension).execute();
    return;
  }
  const updatedAt = now.toISOString();
  await db
    .insertInto('profile_answers')
    .values({ voter_id: voterId, dimension, group_value: value, updated_at: updatedAt })
    .onConflict((conflict) =>
      conflict.columns(['voter_id', 'dimension']).doUpdateSet({ group_value: value, updated_at: updatedAt }),
    )
    .execute();
}

export async function deleteProfile(db: Db, voterId: string): Promise<void> {
  await db.deleteFrom('profile_answers').where('voter_id', '=', voterId).execute();
}
