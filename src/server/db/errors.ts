/**
 * Recognises constraint violations from either database, for the few writes where one is an
 * expected outcome rather than a fault: a duplicate (an e-mail already used on a poll), or a
 * row that vanished meanwhile (a vote for a poll staff deleted a moment ago).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' || // SQLite
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === '23505' // PostgreSQL: unique_violation
  );
}

export function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503'; // PostgreSQL: foreign_key_violation
}
