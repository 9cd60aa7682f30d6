/**
 * What the push reminder calls answer (shared/reminders.ts has their types, as z.infer): apart
 * from reminders.ts, which the reminders page loads, so these schemas never reach a browser.
 */
import { z } from '../zod.js';

export const reminderSettings = z
  .object({
    timeOfDay: z.string().meta({ description: 'HH:MM on a 24-hour clock, in `timeZone`.' }),
    timeZone: z.string(),
    days: z.array(z.number().int()).meta({ description: 'ISO weekdays, 1 Monday to 7 Sunday, in order.' }),
    pausedUntil: z
      .string()
      .nullable()
      .meta({ description: 'No reminder before this date (YYYY-MM-DD, in `timeZone`); null: not paused.' }),
  })
  .meta({ id: 'ReminderSettings' });

/** POST and PUT /api/reminders: the reminder as it is now. */
export const reminderAnswer = z.object({ reminder: reminderSettings }).meta({ id: 'ReminderAnswer' });

/** GET /api/reminders: the key to subscribe with, and this browser's reminder if it has one. */
export const remindersState = z
  .object({
    applicationServerKey: z
      .string()
      .meta({ description: "The site's VAPID public key, base64url: PushManager.subscribe's applicationServerKey." }),
    reminder: reminderSettings.nullable(),
  })
  .meta({ id: 'RemindersState' });
