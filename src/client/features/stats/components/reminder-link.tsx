/**
 * "Add a daily reminder": a calendar file (/reminder.ics) with an event every weekday at the
 * time the visitor picks, 3:30 pm by default, in the site's time zone. A plain form, so it works
 * before the app has loaded too.
 */
import { siteConfig } from '../../../lib/site-config.js';

export function ReminderLink() {
  return (
    <details className="reminder">
      <summary className="reminder__summary">Add a daily reminder</summary>
      <form className="reminder__form" method="get" action="/reminder.ics">
        <label className="reminder__label">
          Remind me every weekday at{' '}
          <input className="input reminder__time" type="time" name="time" defaultValue="15:30" required />
        </label>
        <button type="submit" className="button button--secondary">
          Add to calendar
        </button>
        <p className="reminder__hint">
          Opens in Google Calendar, Outlook or Apple Calendar. Times are in the site’s time zone ({siteConfig.timeZone}
          ).
        </p>
        <p className="reminder__hint">
          Or get a notification in this browser at your own time: <a href="/reminders">Reminders</a>.
        </p>
      </form>
    </details>
  );
}
