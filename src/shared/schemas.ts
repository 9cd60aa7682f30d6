/**
 * Validation of everything visitors and staff send. The server runs these on every request;
 * the browser may run them to explain a problem before sending. Messages are sentences a
 * teacher can act on, because they end up in toasts.
 */
import { z } from './zod.js';
import {
  DESCRIPTION_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  BALLOT_TOKEN_MAX_LENGTH,
  ID_MAX,
  INTEGRITY_REASON_MAX_LENGTH,
  PROOF_MAX_LENGTH,
  NAME_MAX_LENGTH,
  NOTE_MAX_LENGTH,
  OPTIONS_MAX,
  OPTIONS_MIN,
  OPTION_MAX_LENGTH,
  QUESTION_MAX_LENGTH,
  SUGGESTIONS_PAGE_MAX,
  STAFF_PASSWORD_MIN_LENGTH,
} from './limits.js';
import { EXPERIENCE_BANDS, GRADE_BANDS, REGIONS, ROLES, type Profile } from './profile.js';
import { isLocalDate } from './time.js';
import { STAFF_ROLES } from './staff-permissions.js';
import { pollTopics, suggestionTopic, topicSlug } from './topics.js';

/** A body that is JSON but not an object (an array, a string, nothing) gets this message. */
const body = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { error: 'The request body must be a JSON object.' });

/**
 * Control characters (NUL, tab, escape, the C1 range) and unpaired surrogates: nothing a person
 * types, and PostgreSQL refuses NUL outright. Refusing them everywhere means SQLite and
 * PostgreSQL store the same texts.
 */
const CONTROL_CHARACTER = /[\p{Cc}\p{Cs}]/u;

/**
 * Text a person typed, trimmed. Only a multi-line field (a question, a description) may hold
 * line breaks, stored as "\n" whichever way the browser sent them.
 */
const text = (field: string, { multiline = false } = {}) =>
  z
    .string({ error: `${field} must be text.` })
    .overwrite((value) => (multiline ? value.replace(/\r\n?/g, '\n') : value))
    .trim()
    .refine((value) => !CONTROL_CHARACTER.test(multiline ? value.replaceAll('\n', '') : value), {
      error: `${field} contains an invisible control character. Please remove it and try again.`,
      abort: true,
    });

/**
 * An e-mail address, trimmed and lowercased so one person is one address. Required only where
 * someone subscribes, hence the spec's sentence (section 5) for a blank one.
 */
export const emailAddress = text('The email address')
  .toLowerCase()
  .min(1, 'Please enter your email address to subscribe.')
  .max(EMAIL_MAX_LENGTH, `An email address can be at most ${EMAIL_MAX_LENGTH} characters.`)
  .regex(EMAIL_PATTERN, 'Please enter a valid email address.');

/** An e-mail that may be left out; an empty text counts as left out. */
const optionalEmail = z
  .union([z.literal(''), emailAddress], { error: 'Please enter a valid email address.' })
  .nullish()
  .transform((value) => value || undefined);

/** An optional piece of text; blank counts as left out. */
const optionalText = (field: string, max: number, options: { multiline?: boolean } = {}) =>
  text(field, options)
    .max(max, `${field} can be at most ${max} characters.`)
    .nullish()
    .transform((value) => value || undefined);

/** A positive whole number in a URL or body, such as a poll id. */
const positiveId = (field: string) =>
  z.coerce
    .number({ error: `${field} must be a number.` })
    .int(`${field} must be a whole number.`)
    .positive(`${field} must be a positive number.`)
    .max(ID_MAX, `${field} is too large.`);

/**
 * The answer options of a poll or a suggestion: blank entries are dropped (forms send every
 * field, filled or not), then 2 to 6 must remain, each different from the others. Too few is a
 * `too_small` issue, as a blank required field is: the forms title both "missing".
 */
export const answerOptions = z
  .array(text('Each option').max(OPTION_MAX_LENGTH, `Each option can be at most ${OPTION_MAX_LENGTH} characters.`), {
    error: 'Options must be a list of answers.',
  })
  .max(OPTIONS_MAX, `A poll can have at most ${OPTIONS_MAX} options.`)
  .transform((options) => options.filter((option) => option !== ''))
  .superRefine((options, ctx) => {
    if (options.length < OPTIONS_MIN) {
      ctx.addIssue({
        code: 'too_small',
        origin: 'array',
        minimum: OPTIONS_MIN,
        inclusive: true,
        message: 'Please provide at least 2 poll options.',
      });
      return;
    }
    const seen = new Set<string>();
    for (const option of options) {
      const key = option.toLowerCase();
      if (seen.has(key)) {
        ctx.addIssue({ code: 'custom', message: `The option "${option}" is listed twice.` });
        return;
      }
      seen.add(key);
    }
  });

/** The question of a poll or a suggestion; the spec words a blank one differently for each form. */
const question = (blank: string) =>
  text('The question', { multiline: true })
    .min(1, blank)
    .max(QUESTION_MAX_LENGTH, `A question can be at most ${QUESTION_MAX_LENGTH} characters.`);

export const pollIdParams = z.object({ id: positiveId('The poll id') });

export const pollNumberParams = z.object({ number: positiveId('The poll number') });

export const voteRequest = body({
  optionIndex: z
    .number({ error: 'optionIndex must be the number of one of the options.' })
    .int('optionIndex must be a whole number.')
    .min(0, 'optionIndex must be the number of one of the options.')
    .max(OPTIONS_MAX - 1, 'optionIndex must be the number of one of the options.'),
  voterEmail: optionalEmail,
  /** The ballot token of the page the vote came from (ActivePoll.ballot); optional: old clients and scripts send none. */
  ballot: z.string().max(BALLOT_TOKEN_MAX_LENGTH, 'The ballot is not one this site issued.').optional(),
  /** An ALTCHA solution, when the ballot asked for a proof of work. */
  proof: z.string().max(PROOF_MAX_LENGTH, 'The proof of work is not one this site asked for.').optional(),
});

export const updateVoteRequest = body({ email: emailAddress });

/**
 * The e-mail hint of GET /api/polls/active and POST /api/stats (DESIGN.md): the address when it
 * is one, else ignored. A hint never widens what a visitor sees, so a bad one (a leftover in
 * local storage, a second value) must not break the page either.
 */
const emailHint = z
  .unknown()
  .transform((value) => {
    const parsed = emailAddress.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  })
  .optional();

export const activePollQuery = z.object({ email: emailHint });

/**
 * GET /api/polls/:id/ballot: how long the page has shown the question, in ms (the app's clock);
 * anything else, or nothing, reads as just shown. Capped where it is used (BALLOT_SHOWN_MAX_MS).
 */
export const ballotQuery = z.object({
  shown: z
    .unknown()
    .optional()
    .transform((value) => (typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : 0)),
});
export const statsRequest = z
  .object({ voterEmail: emailHint }, { error: 'The request body must be a JSON object.' })
  .nullish()
  .transform((value) => value ?? {});

/** Which e-mails a subscriber gets: the daily one (the default, as before), the weekly digest, or both. */
export const MAIL_FREQUENCIES = ['daily', 'weekly', 'both'] as const;
export type MailFrequency = (typeof MAIL_FREQUENCIES)[number];
export const mailFrequency = z.enum(MAIL_FREQUENCIES, { error: 'Please choose daily, weekly or both.' });

export const subscribeRequest = body({
  email: emailAddress,
  pollId: positiveId('The poll id').nullish(),
  frequency: mailFrequency.nullish().transform((value) => value ?? 'daily'),
});

/** A poll's staff note; blank removes it. */
export const noteRequest = body({
  body: text('The note', { multiline: true }).max(
    NOTE_MAX_LENGTH,
    `A note can be at most ${NOTE_MAX_LENGTH} characters.`,
  ),
});

/** When the weekly digest leaves on Fridays, in the site's time zone (24-hour clock). */
export const digestSettingsRequest = body({
  sendAt: z
    .string({ error: 'The time must be text.' })
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Please give a time such as 16:30 (24-hour clock).'),
});

/** /week/2026-W48: an ISO week. */
export const isoWeekParams = z.object({ week: z.string().regex(/^\d{4}-W(0[1-9]|[1-4]\d|5[0-3])$/) });

export const suggestionRequest = body({
  question: question('Please enter a poll question.'),
  options: answerOptions,
  suggestedBy: optionalText('The name', NAME_MAX_LENGTH),
  email: optionalEmail,
  /** The topic the visitor picked, by its slug (issue 39, item 5). */
  topic: suggestionTopic,
});

/** A poll as staff write it (the admin issue builds on this). */
export const pollDraft = body({
  question: question('Please fill in the question.'),
  description: optionalText('The description', DESCRIPTION_MAX_LENGTH, { multiline: true }),
  options: answerOptions,
  liveDate: z
    .string({ error: 'Please choose a go-live date.' })
    .refine(isLocalDate, 'The go-live date must be a real date written as YYYY-MM-DD.'),
  /** The number of an earlier past poll with the same options: this poll asks it again. */
  askedBefore: positiveId('"Asked before as poll #"')
    .nullish()
    .transform((value) => value ?? null),
  /** The poll's topics by slug (issue 39); left out, an edit keeps the ones it has. */
  topics: pollTopics,
});

/** One answer of the profile: an id from the dimension's list, null to clear it, or left out. */
function profileAnswer<const Ids extends readonly [string, ...string[]]>(label: string, ids: Ids) {
  return z
    .enum(ids, { error: `${label} must be one of: ${ids.join(', ')}, or null.` })
    .nullable()
    .optional();
}

const idsOf = <const G extends readonly [{ id: string }, ...{ id: string }[]]>(groups: G) =>
  groups.map((group) => group.id) as { [K in keyof G]: G[K]['id'] };

/**
 * PUT /api/me/profile: any of the four answers, each an id or null; the ones left out stay as
 * they are. Nothing else is accepted: no free text ever reaches the profile.
 */
export const profileUpdate = z.strictObject(
  {
    role: profileAnswer('Role', idsOf(ROLES)),
    gradeBand: profileAnswer('Grade level', idsOf(GRADE_BANDS)),
    region: profileAnswer('Region', idsOf(REGIONS)),
    experience: profileAnswer('Experience', idsOf(EXPERIENCE_BANDS)),
  } satisfies Record<keyof Profile, z.ZodType>,
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown profile field: ${issue.keys.join(', ')}. The fields are role, gradeBand, region and experience.`
        : 'The request body must be a JSON object.',
  },
);

export type ProfileUpdate = z.output<typeof profileUpdate>;

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

/** GET /api/admin/polls/:id/votes.csv: with `withEmail=true`, the voter e-mails too (owner, recent sign-in). */
export const votesCsvQuery = z.object({ withEmail: z.enum(['true', 'false']).optional() });

/** GET /api/admin/polls/:id/votes: every vote, or with `limit` one page after vote `after`. */
export const votesQuery = z.object({
  after: z.coerce
    .number({ error: 'after must be a vote id.' })
    .int('after must be a vote id.')
    .min(0, 'after must be a vote id.')
    .max(ID_MAX, 'after must be a vote id.')
    .default(0),
  limit: z.coerce
    .number({ error: 'limit must be a number from 1 to 1000.' })
    .int('limit must be a number from 1 to 1000.')
    .min(1, 'limit must be a number from 1 to 1000.')
    .max(1000, 'limit must be a number from 1 to 1000.')
    .optional(),
  withEmail: z.enum(['true', 'false'], { error: 'withEmail must be true or false.' }).optional(),
});

export const suggestionIdParams = z.object({ id: positiveId('The suggestion id') });
export const topicIdParams = z.object({ id: positiveId('The topic id') });

/** Where a page of a suggestion list ended: its last suggestion's time in the list's order, and its id. */
export interface SuggestionPlace {
  at: string;
  id: number;
}

/** A page's `next`, and the `after` that asks for the page following it: "<time in ms>.<id>". */
export const suggestionPlaceText = ({ at, id }: SuggestionPlace) => `${new Date(at).getTime()}.${id}`;

const NOT_A_PLACE = 'after must be the next of an earlier page.';
const PAGE_LIMIT = `limit must be a number from 1 to ${SUGGESTIONS_PAGE_MAX}.`;

/**
 * GET /api/poll-suggestions: with `limit`, one page of a list (pending, reviewed or, without
 * `status`, every suggestion), after the page whose `next` is `after`.
 */
export const suggestionsQuery = z
  .object({
    status: z.enum(['pending', 'reviewed'], { error: 'status must be pending or reviewed.' }).optional(),
    /** Only suggestions the visitor gave this topic (issue 39, item 5). */
    topic: topicSlug.optional(),
    limit: z.coerce
      .number({ error: PAGE_LIMIT })
      .int(PAGE_LIMIT)
      .min(1, PAGE_LIMIT)
      .max(SUGGESTIONS_PAGE_MAX, PAGE_LIMIT)
      .optional(),
    after: z
      .string({ error: NOT_A_PLACE })
      .transform((value, ctx): SuggestionPlace => {
        const [, ms, id] = /^(\d{1,15})\.(\d{1,10})$/.exec(value) ?? [];
        const at = new Date(Number(ms));
        if (ms === undefined || Number.isNaN(at.getTime()) || Number(id) > ID_MAX) {
          ctx.addIssue({ code: 'custom', message: NOT_A_PLACE });
          return z.NEVER;
        }
        return { at: at.toISOString(), id: Number(id) };
      })
      .optional(),
  })
  .refine(({ limit, status, after, topic }) => limit !== undefined || (status ?? after ?? topic) === undefined, {
    error: `Add a limit (1 to ${SUGGESTIONS_PAGE_MAX}) to read a page of suggestions.`,
  });

/**
 * PUT /api/admin/polls/:id/activate may say which poll staff saw active, and so confirmed
 * retiring ("This will deactivate the current poll."): `null` when none was. If another poll
 * went live since, the change is refused rather than retiring a poll nobody confirmed. Left out
 * (an empty object or no body), the poll is made active whatever is active now.
 */
const NOT_A_REPLACED_POLL = 'replacing must be the id of the poll that is active now, or null.';
export const activateRequest = body({
  replacing: z
    .number({ error: NOT_A_REPLACED_POLL })
    .int(NOT_A_REPLACED_POLL)
    .positive(NOT_A_REPLACED_POLL)
    .max(ID_MAX, NOT_A_REPLACED_POLL)
    .nullable()
    .optional(),
});

export const suggestionStatusRequest = body({
  status: z.enum(['approved', 'rejected'], { error: 'The status must be "approved" or "rejected".' }),
});

export type VoteRequest = z.output<typeof voteRequest>;
export type ActivateRequest = z.output<typeof activateRequest>;
export type SubscribeRequest = z.output<typeof subscribeRequest>;
export type SuggestionRequest = z.output<typeof suggestionRequest>;
export type PollDraft = z.output<typeof pollDraft>;

/**
 * Staff review of a poll's votes (src/server/integrity/). A network is named by its bucket: the
 * 16 hex digits of a keyed hash of its address block, as the integrity report lists it.
 */
const NOT_A_BUCKET = "bucket must be a network's 16-character code, as the integrity report gives it.";
const bucketCode = z
  .string({ error: NOT_A_BUCKET })
  .trim()
  .toLowerCase()
  .regex(/^[0-9a-f]{16}$/, NOT_A_BUCKET);

/** An instant written in ISO 8601 with its offset ("2026-11-21T15:04:05.000Z"), read as UTC. */
const instant = (field: string) =>
  z
    .string({ error: `${field} must be a time such as 2026-11-21T15:04:05Z.` })
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/,
      `${field} must be a time such as 2026-11-21T15:04:05Z.`,
    )
    .transform((value, ctx) => {
      const time = new Date(value);
      if (Number.isNaN(time.getTime())) {
        ctx.addIssue({ code: 'custom', message: `${field} is not a real time.` });
        return z.NEVER;
      }
      return time.toISOString();
    });

/** Why: required where votes are set aside, so the log says it to whoever looks later. */
const reviewReason = text('The reason').max(
  INTEGRITY_REASON_MAX_LENGTH,
  `The reason can be at most ${INTEGRITY_REASON_MAX_LENGTH} characters.`,
);

export const discountIdParams = z.object({
  id: positiveId('The poll id'),
  discountId: positiveId('The discount id'),
});

/** POST /api/admin/polls/:id/discounts: the counted votes of one network between two times. */
export const discountRequest = body({
  bucket: bucketCode,
  from: instant('from'),
  to: instant('to'),
  reason: reviewReason.min(1, 'Please give a reason for setting these votes aside.'),
}).refine(({ from, to }) => from <= to, { error: 'from must not be after to.', path: ['to'] });

/** POST /api/admin/polls/:id/held/release: one network's held votes, or (no bucket) every held vote. */
export const releaseRequest = body({
  bucket: bucketCode.nullish().transform((value) => value ?? undefined),
  reason: reviewReason.nullish().transform((value) => value || undefined),
})
  .nullish()
  .transform((value) => value ?? { bucket: undefined, reason: undefined });

/** PUT /api/admin/polls/:id/challenge: ask every vote on the poll for a proof of work, or stop. */
export const challengeRequest = body({
  everyone: z.boolean({ error: 'everyone must be true or false.' }),
});

export type DiscountRequest = z.output<typeof discountRequest>;
export type ReleaseRequest = z.output<typeof releaseRequest>;
