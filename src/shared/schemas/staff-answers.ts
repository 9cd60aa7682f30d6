/** What the staff calls answer about people, sessions, passkeys, invites and the audit log. */
import { z } from '../zod.js';
import { STAFF_ROLES } from '../staff-permissions.js';

const id = z.number().int();
const role = z.enum(STAFF_ROLES);

export const staffMember = z
  .object({
    id,
    email: z.string(),
    displayName: z.string(),
    role,
    disabled: z.boolean(),
    hasPassword: z.boolean(),
    passkeys: z.number().int(),
    createdAt: z.string(),
  })
  .meta({ id: 'StaffMember', description: 'A person on the staff.' });

export const adminSession = z
  .object({
    authenticated: z.boolean(),
    staff: staffMember.optional().meta({ description: 'The signed-in person; absent when nobody is.' }),
    needsOwner: z
      .boolean()
      .optional()
      .meta({ description: 'The site has no owner yet: the old admin password opens "Create the owner account".' }),
  })
  .meta({ id: 'AdminSession' });

export const staffSession = z
  .object({
    id,
    staffId: id,
    staffName: z.string(),
    browser: z.string(),
    createdAt: z.string(),
    lastSeenAt: z.string(),
    current: z.boolean().meta({ description: 'The session this request came with.' }),
  })
  .meta({ id: 'StaffSession' });

export const staffPasskey = z
  .object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() })
  .meta({ id: 'StaffPasskey' });

export const staffInvite = z
  .object({ id, email: z.string(), role, createdAt: z.string(), expiresAt: z.string() })
  .meta({ id: 'StaffInvite', description: 'An invite waiting to be accepted.' });

export const inviteDetails = z
  .object({ email: z.string(), role })
  .meta({ id: 'InviteDetails', description: 'What an invite link offers before it is accepted.' });

export const auditEntry = z
  .object({
    id,
    at: z.string(),
    actor: z.object({ id: id.nullable(), name: z.string(), role: z.string() }),
    action: z.string(),
    target: z.string(),
    summary: z.string(),
  })
  .meta({
    id: 'AuditEntry',
    description: 'A row of the audit log. Never passwords, tokens, passkeys or voter e-mails.',
  });

export const auditPage = z
  .object({
    entries: z.array(auditEntry),
    next: id.nullable().meta({ description: 'Pass as `before` for the next page; null at the end.' }),
  })
  .meta({ id: 'AuditPage' });

export const auditCheck = z
  .object({
    ok: z.boolean(),
    rows: z.number().int(),
    brokenAt: id.nullable(),
    problem: z.string().nullable(),
    keyed: z.boolean().meta({ description: 'Whether the chain is keyed with AUDIT_CHAIN_KEY.' }),
    unkeyedRows: z.number().int(),
    head: z
      .object({ id, hash: z.string() })
      .nullable()
      .meta({ description: 'The last row, as the daily log line publishes it; null for an empty or broken chain.' }),
  })
  .meta({ id: 'AuditCheck', description: "The audit log's hash chain check." });

/** POST /api/admin/invites: the invite, with the link to pass on (shown this once; only its hash is kept). */
export const newInvite = staffInvite
  .extend({ link: z.string().meta({ description: 'The invite link, to pass on; shown only this once.' }) })
  .meta({ id: 'NewInvite' });

/**
 * WebAuthn options for navigator.credentials.create or .get, as @simplewebauthn/server makes
 * them (PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON); `challenge` is what
 * the answer must sign.
 */
export const passkeyOptions = z
  .looseObject({ challenge: z.string().meta({ description: 'base64url; valid for a few minutes.' }) })
  .meta({ id: 'PasskeyOptions', description: 'WebAuthn options (JSON) for the browser to make or use a passkey.' });
