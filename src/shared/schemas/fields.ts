/**
 * The parts every request schema is built of: a JSON body, text a person typed, an e-mail
 * address, an id, a poll's options and question. Messages are sentences a teacher can act on,
 * because they end up in toasts.
 */
import { z } from '../zod.js';
import {
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  ID_MAX,
  OPTIONS_MAX,
  OPTIONS_MIN,
  OPTION_MAX_LENGTH,
  QUESTION_MAX_LENGTH,
} from '../limits.js';

/** A body that is JSON but not an object (an array, a string, nothing) gets this message. */
export const body = <T extends z.ZodRawShape>(shape: T) =>
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
export const text = (field: string, { multiline = false } = {}) =>
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
export const optionalEmail = z
  .union([z.literal(''), emailAddress], { error: 'Please enter a valid email address.' })
  .nullish()
  .transform((value) => value || undefined);

/** An optional piece of text; blank counts as left out. */
export const optionalText = (field: string, max: number, options: { multiline?: boolean } = {}) =>
  text(field, options)
    .max(max, `${field} can be at most ${max} characters.`)
    .nullish()
    .transform((value) => value || undefined);

/** A positive whole number in a URL or body, such as a poll id. */
export const positiveId = (field: string) =>
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
export const question = (blank: string) =>
  text('The question', { multiline: true })
    .min(1, blank)
    .max(QUESTION_MAX_LENGTH, `A question can be at most ${QUESTION_MAX_LENGTH} characters.`);
