/**
 * This browser's push reminder (src/shared/reminders.ts): read it with the key to subscribe
 * with, turn it on, change it, test it, turn it off.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ReminderSettings, RemindersState } from '../../shared/reminders.js';
import { apiRequest } from '../lib/api-client.js';

export const getReminders = () => apiRequest<RemindersState>('/api/reminders');

export const remindersQuery = queryOptions({
  queryKey: ['reminders'],
  queryFn: getReminders,
  staleTime: 0,
});

export const useReminders = (enabled = true) => useQuery({ ...remindersQuery, enabled });

export const turnOnReminder = (subscription: PushSubscriptionJSON, settings: Partial<ReminderSettings>) =>
  apiRequest<{ reminder: ReminderSettings }>('/api/reminders', { method: 'POST', body: { subscription, ...settings } });

export const changeReminder = (settings: ReminderSettings) =>
  apiRequest<{ reminder: ReminderSettings }>('/api/reminders', { method: 'PUT', body: settings });

export const turnOffReminder = () => apiRequest<null>('/api/reminders', { method: 'DELETE' });

export const testReminder = () => apiRequest<{ message: string }>('/api/reminders/test', { method: 'POST' });
