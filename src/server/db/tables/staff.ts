/** Staff identity: people, passkeys, invite and sign-in links, sessions, the audit log. */
import type { ColumnType, Generated } from 'kysely';
import type { NullableTimestamp, Timestamp } from './time.js';

export interface AdminSessionsTable {
  id: Generated<number>;
  /** SHA-256 of the session token; the token itself lives only in the staff member's cookie. */
  token_hash: string;
  staff_id: number;
  /** "Firefox on Windows": what the person sees in their list of sessions. */
  browser: string;
  created_at: Timestamp;
  /** When the person last proved who they are (signed in or re-confirmed). */
  signed_in_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Timestamp;
}

export type StaffRoleColumn = 'owner' | 'editor' | 'moderator';

export interface StaffTable {
  id: Generated<number>;
  /** Lower case; one account per address. */
  email: string;
  display_name: string;
  role: StaffRoleColumn;
  /** scrypt (staff/password.ts); null for a person who signs in with passkeys only. */
  password_hash: string | null;
  created_at: Timestamp;
  disabled_at: NullableTimestamp;
}

export interface StaffPasskeysTable {
  /** The credential id, base64url. */
  id: string;
  staff_id: number;
  name: string;
  /** COSE public key, base64url. */
  public_key: string;
  counter: ColumnType<number | string, number, number>;
  /** JSON array of transports. */
  transports: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface StaffLinksTable {
  id: Generated<number>;
  token_hash: string;
  mail_token_hash: Generated<string | null>;
  kind: 'invite' | 'sign-in';
  email: string | null;
  role: StaffRoleColumn | null;
  staff_id: number | null;
  created_by: number | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  accepted_staff_id: number | null;
}

export interface WebauthnChallengesTable {
  challenge: string;
  purpose: 'sign-in' | 'register' | 'invite';
  staff_id: number | null;
  link_id: number | null;
  /** A sign-in challenge's network (keyed hash): each keeps only its newest few. */
  network: Generated<string | null>;
  expires_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: Timestamp;
  actor_id: number | null;
  actor_name: string;
  actor_role: string;
  action: string;
  target: string;
  summary: string;
  prev_hash: string;
  hash: string;
}
