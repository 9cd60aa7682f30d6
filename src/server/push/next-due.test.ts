import { describe, expect, it } from 'vitest';
import { endpointProblem } from './endpoints.js';
import { nextDueAfter } from './next-due.js';
import { DEFAULT_PUSH_SERVICE_HOSTS } from '../config.js';

const weekdays = [1, 2, 3, 4, 5];
const due = (after: string, timeZone: string, extra: Partial<Parameters<typeof nextDueAfter>[1]> = {}) =>
  nextDueAfter(new Date(after), {
    timeOfDay: '15:30',
    timeZone,
    days: weekdays,
    pausedUntil: null,
    ...extra,
  })?.toISOString();

describe('nextDueAfter', () => {
  it('is today’s time if it is still to come, else the next of the teacher’s days', () => {
    // Monday 23 November 2026, New York (UTC-5).
    expect(due('2026-11-23T15:00:00Z', 'America/New_York')).toBe('2026-11-23T20:30:00.000Z');
    expect(due('2026-11-23T20:30:00Z', 'America/New_York')).toBe('2026-11-24T20:30:00.000Z');
    // Friday after the time: Monday.
    expect(due('2026-11-27T21:00:00Z', 'America/New_York')).toBe('2026-11-30T20:30:00.000Z');
  });

  it('keeps to the teacher’s wall clock across the clocks changing', () => {
    // London goes back on Sunday 25 October 2026: 14:30 UTC on Friday, 15:30 UTC on Monday.
    expect(due('2026-10-23T12:00:00Z', 'Europe/London')).toBe('2026-10-23T14:30:00.000Z');
    expect(due('2026-10-23T15:00:00Z', 'Europe/London')).toBe('2026-10-26T15:30:00.000Z');
    // New York goes forward on Sunday 8 March 2026; a time the clocks skip is the moment they jump.
    expect(due('2026-03-06T21:00:00Z', 'America/New_York')).toBe('2026-03-09T19:30:00.000Z');
    expect(due('2026-03-07T12:00:00Z', 'America/New_York', { timeOfDay: '02:30', days: [7] })).toBe(
      '2026-03-08T07:00:00.000Z',
    );
    // Sydney goes forward on Sunday 4 October 2026 (UTC+10 to UTC+11).
    expect(due('2026-10-02T06:00:00Z', 'Australia/Sydney')).toBe('2026-10-05T04:30:00.000Z');
  });

  it('waits for the end of a pause, and is null with no days', () => {
    expect(due('2026-11-23T15:00:00Z', 'America/New_York', { pausedUntil: '2026-12-02' })).toBe(
      '2026-12-02T20:30:00.000Z',
    );
    expect(due('2026-11-23T15:00:00Z', 'America/New_York', { days: [] })).toBeUndefined();
  });
});

describe('endpointProblem', () => {
  it.each([
    'https://fcm.googleapis.com/fcm/send/abc',
    'https://updates.push.services.mozilla.com/wpush/v2/abc',
    'https://web.push.apple.com/QGk',
    'https://wns2-by3p.notify.windows.com/w/?token=abc',
    'https://fcm.googleapis.com:443/fcm/send/abc',
  ])('takes %s', (endpoint) => {
    expect(endpointProblem(endpoint, DEFAULT_PUSH_SERVICE_HOSTS)).toBeNull();
  });

  it.each([
    'http://fcm.googleapis.com/fcm/send/abc',
    'https://fcm.googleapis.com.evil.example/x',
    'https://evilpush.apple.com/x',
    'https://push.apple.com/x',
    'https://127.0.0.1/x',
    'https://user@fcm.googleapis.com/x',
    'ftp://fcm.googleapis.com/x',
  ])('refuses %s', (endpoint) => {
    expect(endpointProblem(endpoint, DEFAULT_PUSH_SERVICE_HOSTS)).not.toBeNull();
  });

  it.each([
    'https://fcm.googleapis.com:22/x',
    'https://web.push.apple.com:5999/x',
    'https://fcm.googleapis.com:65535/x',
  ])('refuses %s: a push host, but not the https port', (endpoint) => {
    expect(endpointProblem(endpoint, DEFAULT_PUSH_SERVICE_HOSTS)).toBe(
      'The push endpoint must use the standard https port.',
    );
  });

  it('takes another port only where PUSH_SERVICE_HOSTS names it', () => {
    expect(endpointProblem('https://localhost:8443/push/1', ['localhost:8443'])).toBeNull();
    expect(endpointProblem('https://localhost:8444/push/1', ['localhost:8443'])).not.toBeNull();
    expect(endpointProblem('https://localhost/push/1', ['localhost:8443'])).not.toBeNull();
  });
});
