/** The column types of a point in time, shared by every table. */
import type { ColumnType } from 'kysely';

/**
 * A point in time. It is written as an ISO string; PostgreSQL (timestamptz) reads back a Date,
 * SQLite (text) the string. Use `toIsoString` to read it.
 */
export type Timestamp = ColumnType<Date | string, string, string>;
export type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>;

export function toIsoString(value: Date | string): string {
  return typeof value === 'string' ? new Date(value).toISOString() : value.toISOString();
}
