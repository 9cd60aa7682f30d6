/** GET /reminder.ics[?time=HH:MM]: the daily reminder to download into a calendar. */
import type { FastifyPluginAsync } from 'fastify';
import { parseTimeOfDay } from '../../shared/time.js';
import type { Clock } from '../clock.js';
import { badRequest } from '../http/errors.js';
import { DEFAULT_REMINDER_TIME, reminderCalendar, type ReminderSite } from './calendar.js';

export const calendarRoutes: FastifyPluginAsync<{ site: ReminderSite; clock: Clock }> = async (
  app,
  { site, clock },
) => {
  app.get('/reminder.ics', async (request, reply) => {
    const { time } = request.query as { time?: unknown };
    let chosen = DEFAULT_REMINDER_TIME;
    if (time !== undefined && time !== '') {
      const parsed = typeof time === 'string' ? parseTimeOfDay(time) : null;
      if (!parsed) throw badRequest('The time must be HH:MM on a 24-hour clock, for example 15:30.');
      chosen = parsed;
    }
    return reply
      .type('text/calendar; charset=utf-8')
      .header('content-disposition', 'attachment; filename="hot-take-reminder.ics"')
      .header('cache-control', 'no-store')
      .send(reminderCalendar(site, chosen, clock.now()));
  });
};
