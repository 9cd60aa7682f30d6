/**
 * Push reminders (issue 28): what a browser sends to turn on, change and read its daily
 * reminder, checked by the server and by the settings form alike. A reminder is a time of day
 * in the teacher's own time zone, on some days of the week, perhaps paused until a date.
 */
import { z } from './zod.js';
import type * as answers from './schemas/reminder-answers.js';
import { isLocalDate, isValidTimeZone, parseTimeOfDay, type LocalDate } from './time.js';

/** When lessons end in many schools: Teacher Tapp's 3:30 pm. */
export const DEFAULT_REMINDER_TIME = '15:30';
/** ISO weekdays, Monday 1 to Sunday 7; school days by default. */
export const DEFAULT_REMINDER_DAYS = [1, 2, 3, 4, 5] as const;
export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** A push endpoint is a URL of a few hundred characters; FCM's are about 200. */
export const PUSH_ENDPOINT_MAX_LENGTH = 1024;
/** Base64url of a 65-byte P-256 point (87 characters, padding optional). */
const P256DH_PATTERN = /^[A-Za-z0-9_-]{86,87}={0,1}$/;
/** Base64url of the 16-byte authentication secret. */
const AUTH_PATTERN = /^[A-Za-z0-9_-]{21,22}={0,2}$/;
/** IANA names are short; this bounds what Intl is asked to parse. */
const TIME_ZONE_MAX_LENGTH = 64;

const timeOfDay = z
  .string({ error: 'The reminder time must be text such as 15:30.' })
  .refine((value) => parseTimeOfDay(value) !== null, { error: 'Please choose a time such as 15:30 (24-hour clock).' });

const timeZone = z
  .string({ error: 'The time zone must be text.' })
  .max(TIME_ZONE_MAX_LENGTH, 'The time zone is not one this site knows.')
  .refine((value) => /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value) && isValidTimeZone(value), {
    error: 'The time zone is not one this site knows.',
  });

const days = z
  .array(z.number({ error: 'Each day must be a number from 1 (Monday) to 7 (Sunday).' }).int().min(1).max(7), {
    error: 'The days must be a list of weekdays.',
  })
  .min(1, 'Please choose at least one day.')
  .max(7)
  .transform((list) => [...new Set(list)].sort((a, b) => a - b));

const pausedUntil = z
  .string()
  .refine(isLocalDate, { error: 'The pause must end on a real date (YYYY-MM-DD).' })
  .nullable();

/** The reminder's settings: every field optional when turning on (defaults), all sent when changing. */
export const reminderSettingsShape = {
  timeOfDay: timeOfDay.default(DEFAULT_REMINDER_TIME),
  timeZone,
  days: days.default([...DEFAULT_REMINDER_DAYS]),
  pausedUntil: pausedUntil.default(null),
};

/** The PushSubscription's JSON (`subscription.toJSON()`), as the browser has it. */
export const pushSubscriptionJson = z.object(
  {
    endpoint: z
      .string({ error: 'The push subscription has no endpoint.' })
      .max(PUSH_ENDPOINT_MAX_LENGTH, 'The push endpoint is too long.'),
    keys: z.object(
      {
        p256dh: z.string().regex(P256DH_PATTERN, 'The push subscription key is not valid.'),
        auth: z.string().regex(AUTH_PATTERN, 'The push subscription secret is not valid.'),
      },
      { error: 'The push subscription has no keys.' },
    ),
  },
  { error: 'Send the browser’s push subscription.' },
);

const object = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { error: 'The request body must be a JSON object.' });

/** POST /api/reminders: this browser's subscription and its settings. */
export const reminderSubscribeRequest = object({ subscription: pushSubscriptionJson, ...reminderSettingsShape });
export type ReminderSubscribeRequest = z.output<typeof reminderSubscribeRequest>;

/** PUT /api/reminders: new settings for this browser's reminder. */
export const reminderSettingsRequest = object(reminderSettingsShape);
export type ReminderSettingsRequest = z.output<typeof reminderSettingsRequest>;

/** A reminder's settings as the API answers them (schemas/reminder-answers.ts). */
export type ReminderSettings = z.infer<typeof answers.reminderSettings>;

/** GET /api/reminders: the key to subscribe with, and this browser's reminder if it has one. */
export type RemindersState = z.infer<typeof answers.remindersState>;

/** What a reminder notification carries, and nothing else: the site, today's question, its page. */
export interface ReminderPayload {
  title: string;
  body: string;
  url: string;
  /** One per day: a resent reminder replaces the first instead of showing twice. */
  tag: string;
}

/** The tag (and Topic) of a day's reminder: base64url characters only, at most 32 (RFC 8030). */
export const reminderTag = (date: LocalDate) => `reminder-${date}`;
