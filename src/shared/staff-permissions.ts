/**
 * Who may do what (issue 27; DESIGN.md, "Admin"): one table, read by the server to refuse a
 * call (403 before anything happens) and by the panel to show only what a person may do.
 */
export const STAFF_ROLES = ['owner', 'editor', 'moderator'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ACTIONS = [
  /** Every signed-in person: their own sessions and passkeys. */
  'self',
  /** See polls and their figures (votes without e-mails, mail figures). */
  'polls.read',
  /** Create, edit, schedule, activate polls, delete those nobody has voted on; run the daily switch. */
  'polls.write',
  /** Delete a poll that has votes, and them with it (also needs a recent sign-in). */
  'polls.delete-voted',
  /** The votes CSV without e-mails. */
  'votes.export',
  /**
   * E-mail addresses of the public: voters' in the votes list and the CSV with them (also needs a
   * recent sign-in), suggesters' in the suggestions. No other role receives one in any answer.
   */
  'votes.emails',
  /** The integrity view and its actions. */
  'integrity.read',
  'integrity.write',
  /** Suggestions: read (they hold the suggester's e-mail), approve, reject, delete. */
  'suggestions.read',
  'suggestions.write',
  /** People, roles, invites, anyone's sessions. */
  'staff.manage',
  /** The audit log and its CSV. */
  'audit.read',
  /** The list of topics polls are given (issue 39): add, rename, delete. Giving a poll topics is polls.write. */
  'topics.manage',
  /** Site settings: when the weekly digest leaves on Fridays. */
  'settings.write',
] as const;
export type StaffAction = (typeof STAFF_ACTIONS)[number];

const TABLE: Record<StaffRole, readonly StaffAction[]> = {
  owner: STAFF_ACTIONS,
  editor: ['self', 'polls.read', 'polls.write', 'votes.export', 'integrity.read', 'integrity.write'],
  moderator: ['self', 'suggestions.read', 'suggestions.write'],
};

export function can(role: StaffRole, action: StaffAction): boolean {
  return TABLE[role].includes(action);
}

/**
 * Voter e-mails, and what makes access permanent or cannot be undone (adding a passkey, a new
 * password, an invite, deleting a poll with votes), need a sign-in (or a re-confirmation) this recent.
 */
export const RECENT_SIGN_IN_MINUTES = 10;

export const ROLE_LABELS: Record<StaffRole, string> = { owner: 'Owner', editor: 'Editor', moderator: 'Moderator' };
