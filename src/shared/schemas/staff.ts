/** What staff send to sign in and manage people, sessions, passkeys and the audit log, and what they are answered. */
import { z } from '../zod.js';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, NAME_MAX_LENGTH, STAFF_PASSWORD_MIN_LENGTH } from '../limits.js';
import { STAFF_ROLES } from '../staff-permissions.js';
import { body, positiveId, text } from './fields.js';

/** A staff member's e-mail: the same rules as a subscriber's, worded for staff. */
const staffEmail = text('The email address')
  .toLowerCase()
  .min(1, 'Please enter your email address.')
  .max(EMAIL_MAX_LENGTH, `An email address can be at most ${EMAIL_MAX_LENGTH} characters.`)
  .regex(EMAIL_PATTERN, 'Please enter a valid email address.');

const passwordTyped = z
  .string({ error: 'Please enter your password.' })
  .min(1, 'Please enter your password.')
  .max(1000, 'That password is too long.');

/**
 * A new staff password: long rather than clever (NIST SP 800-63B). The server also refuses one on
 * its list of common and breached passwords (server/staff/password-policy.ts).
 */
export const newStaffPassword = z
  .string({ error: 'Please choose a password.' })
  .min(
    STAFF_PASSWORD_MIN_LENGTH,
    `A password needs at least ${STAFF_PASSWORD_MIN_LENGTH} characters. A few words make a good one.`,
  )
  .max(1000, 'That password is too long.');

export const displayName = text('Your name')
  .min(1, 'Please enter your name.')
  .max(NAME_MAX_LENGTH, `A name can be at most ${NAME_MAX_LENGTH} characters.`);

/** POST /api/admin/login */
export const signInRequest = body({ email: staffEmail, password: passwordTyped });

/** POST /api/admin/setup: the site's old admin password makes the first owner, once. */
export const ownerSetupRequest = body({
  adminPassword: passwordTyped,
  email: staffEmail,
  displayName,
  password: newStaffPassword,
});

export const staffRole = z.enum(STAFF_ROLES, { error: 'The role must be owner, editor or moderator.' });

/** POST /api/admin/invites */
export const inviteRequest = body({ email: staffEmail, role: staffRole });

export const tokenField = z
  .string({ error: 'This link is not valid.' })
  .min(1, 'This link is not valid.')
  .max(200, 'This link is not valid.');

/** POST /api/admin/invites/accept: a password; or, with a passkey, the registration's response. */
export const acceptInviteRequest = body({
  token: tokenField,
  displayName,
  password: newStaffPassword.optional(),
  passkey: z.record(z.string(), z.unknown()).optional(),
});

/** POST /api/admin/invites/passkey-options */
export const invitePasskeyOptionsRequest = body({ token: tokenField, displayName });

/** POST /api/admin/sign-in-link and POST /api/admin/invites/lookup: a link's token, sent in a body, never in a URL. */
export const linkTokenRequest = body({ token: tokenField });

/** PUT /api/admin/staff/:id: a new role, or disabled (true) / enabled again (false). */
export const staffChangeRequest = body({ role: staffRole.optional(), disabled: z.boolean().optional() });

export const staffIdParams = z.object({ id: positiveId('The staff id') });
export const sessionIdParams = z.object({ id: positiveId('The session id') });
export const passkeyIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(1400)
    .regex(/^[\w-]+$/, 'The passkey id is not valid.'),
});

/** POST /api/admin/passkeys: a registration response and the name its owner gives it. */
export const passkeyRequest = body({
  name: text('The passkey name')
    .min(1, 'Please name the passkey.')
    .max(60, 'A passkey name can be at most 60 characters.'),
  response: z.record(z.string(), z.unknown()),
});

/** POST /api/admin/passkeys/sign-in */
export const passkeySignInRequest = body({ response: z.record(z.string(), z.unknown()) });

/** PUT /api/admin/password */
export const passwordChangeRequest = body({ password: newStaffPassword });

/** GET /api/admin/audit(.csv) */
export const auditQuery = z.object({
  actor: positiveId('The person').optional(),
  action: z
    .string()
    .max(60)
    .regex(/^[a-z.-]+$/, 'The action is not valid.')
    .optional(),
  from: z.iso.datetime({ error: 'from must be an ISO date and time.' }).optional(),
  to: z.iso.datetime({ error: 'to must be an ISO date and time.' }).optional(),
  before: positiveId('before').optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

/** GET /api/admin/sessions: the owner may ask for anyone's (`staff`), or everyone's (`all`). */
export const sessionsQuery = z.object({
  staff: positiveId('The person').optional(),
  all: z.enum(['true', 'false']).optional(),
});
