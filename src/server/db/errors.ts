/**
 * Recognises a unique-constraint violation from either database, for the few writes where a
 * duplicate is an expected outcome (an e-mail already used on a poll) rather than a fault.
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
