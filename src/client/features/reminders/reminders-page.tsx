/**
 * /reminders: this browser's daily reminder, seen and changed: the time, the time zone (the
 * browser's own at first), the days, a pause; a test notification; off. Drawn by the server as a
 * shell: a reminder is a notification from the browser, which takes scripts, so without them
 * the page says so and nothing more.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { changeReminder, remindersQuery, testReminder, turnOffReminder, useReminders } from '../../api/reminders.js';
import { PageShell } from '../../components/layout/page-shell.js';
import { toast } from '../../components/ui/toast.js';
import { errorMessage } from '../../lib/api-client.js';
import { OnceHydrated } from '../../lib/use-hydrated.js';
import {
  DEFAULT_REMINDER_DAYS,
  DEFAULT_REMINDER_TIME,
  WEEKDAY_NAMES,
  type ReminderSettings,
} from '../../../shared/reminders.js';
import { PAGE_TITLES } from '../../../shared/page-head.js';
import { browserTimeZone, pushSupport, turnOn, unsubscribeBrowser } from './push.js';
import { reminderSummary } from './reminder-words.js';
import './reminders.css';

export default function RemindersPage() {
  return (
    <PageShell title={PAGE_TITLES.reminders} path="/reminders">
      <h1 className="info-page__title">Reminders</h1>
      <div className="card reminders">
        <p>
          One notification a day at the time you choose, on your days, with today’s question, and none once you have
          voted. It comes from your browser, on this device only.
        </p>
        <OnceHydrated>
          {(hydrated) =>
            hydrated ? (
              <ReminderControls />
            ) : (
              <p className="reminders__note reminders__pending">
                Reminders are notifications from your browser, and those need JavaScript: turn scripts on for this site
                to see or change this browser’s reminder.
              </p>
            )
          }
        </OnceHydrated>
      </div>
    </PageShell>
  );
}

function ReminderControls() {
  const support = pushSupport();
  const reminders = useReminders(support === 'supported');
  if (support === 'unsupported')
    return <p className="reminders__note">This browser cannot show notifications from websites.</p>;
  if (support === 'denied') {
    return (
      <p className="reminders__note">
        Notifications are blocked for this site in your browser’s settings. Allow them there to get reminders.
      </p>
    );
  }
  if (support === 'home-screen-first') {
    return (
      <p className="reminders__note">
        On an iPhone or iPad, reminders come to the app on your home screen: tap <strong>Share</strong>, then{' '}
        <strong>Add to Home Screen</strong>, and open this page from the new icon.
      </p>
    );
  }
  if (reminders.isPending) return <p className="reminders__note reminders__pending">Loading your reminder…</p>;
  if (reminders.isError)
    return (
      <p className="reminders__note">
        {errorMessage(reminders.error, 'Could not load your reminder. Please reload the page.')}
      </p>
    );
  return <ReminderForm key={JSON.stringify(reminders.data.reminder)} state={reminders.data} />;
}

const ALL_ZONES = (): string[] => {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  return supported ? supported('timeZone') : [browserTimeZone()];
};

function ReminderForm({ state }: { state: { applicationServerKey: string; reminder: ReminderSettings | null } }) {
  const queryClient = useQueryClient();
  const current = state.reminder;
  const [settings, setSettings] = useState<ReminderSettings>(
    current ?? {
      timeOfDay: DEFAULT_REMINDER_TIME,
      timeZone: browserTimeZone(),
      days: [...DEFAULT_REMINDER_DAYS],
      pausedUntil: null,
    },
  );
  const [busy, setBusy] = useState(false);
  const zones = ALL_ZONES();
  if (!zones.includes(settings.timeZone)) zones.unshift(settings.timeZone);

  async function act(work: () => Promise<string>, failure: string) {
    setBusy(true);
    try {
      toast({ title: await work() });
      await queryClient.invalidateQueries({ queryKey: remindersQuery.queryKey });
    } catch (error) {
      toast({ title: failure, description: errorMessage(error, 'Please try again.'), variant: 'failure' });
    } finally {
      setBusy(false);
    }
  }

  function save(event: { preventDefault: () => void }) {
    event.preventDefault();
    if (current) {
      void act(async () => reminderSummary((await changeReminder(settings)).reminder), 'Could not save your reminder');
    } else {
      void act(async () => {
        const outcome = await turnOn(state.applicationServerKey, settings);
        if (!outcome.ok) throw new Error('Notifications are blocked for this site.');
        return reminderSummary(outcome.reminder);
      }, 'Could not turn reminders on');
    }
  }

  const toggleDay = (day: number, on: boolean) =>
    setSettings((s) => ({ ...s, days: on ? [...s.days, day].sort() : s.days.filter((d) => d !== day) }));

  return (
    <form className="reminders__form" onSubmit={save}>
      <p className="reminders__status" role="status">
        {current ? reminderSummary(current) : 'This browser has no reminder yet.'}
      </p>
      <label className="reminders__field">
        <span>Time</span>
        <input
          className="input"
          type="time"
          required
          value={settings.timeOfDay}
          onChange={(e) => setSettings((s) => ({ ...s, timeOfDay: e.target.value }))}
        />
      </label>
      <label className="reminders__field">
        <span>Time zone</span>
        <select
          className="input"
          value={settings.timeZone}
          onChange={(e) => setSettings((s) => ({ ...s, timeZone: e.target.value }))}
        >
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="reminders__days">
        <legend>Days</legend>
        {WEEKDAY_NAMES.map((name, index) => (
          <label key={name} className="reminders__day">
            <input
              type="checkbox"
              checked={settings.days.includes(index + 1)}
              onChange={(e) => toggleDay(index + 1, e.target.checked)}
            />
            {name.slice(0, 3)}
          </label>
        ))}
      </fieldset>
      <label className="reminders__field">
        <span>Pause until (optional)</span>
        <input
          className="input"
          type="date"
          value={settings.pausedUntil ?? ''}
          onChange={(e) => setSettings((s) => ({ ...s, pausedUntil: e.target.value || null }))}
        />
      </label>
      <div className="reminders__actions">
        <button type="submit" className="button button--primary" disabled={busy || settings.days.length === 0}>
          {current ? 'Save' : '🔔 Turn reminders on'}
        </button>
        {current && (
          <>
            <button
              type="button"
              className="button button--secondary"
              disabled={busy}
              onClick={() => void act(async () => (await testReminder()).message, 'Could not send a test')}
            >
              Send a test notification
            </button>
            <button
              type="button"
              className="button button--danger"
              disabled={busy}
              onClick={() =>
                void act(async () => {
                  await turnOffReminder();
                  await unsubscribeBrowser();
                  return 'Reminders are off for this browser.';
                }, 'Could not turn reminders off')
              }
            >
              Turn off
            </button>
          </>
        )}
      </div>
    </form>
  );
}
