import { describe, expect, it } from 'vitest';
import { screenOf } from './screens.js';

const screen = (url: string) => {
  const { pathname, searchParams } = new URL(url, 'http://localhost');
  return screenOf(pathname, searchParams);
};

describe('which screen an address shows', () => {
  it('reads /poll-N as the server does: a number a poll can have, written without sign or leading zero', () => {
    expect(screen('/poll-3')).toEqual({ kind: 'poll', pollNumber: 3 });
    expect(screen('/poll-3/')).toEqual({ kind: 'poll', pollNumber: 3 });
    expect(screen('/poll-2147483647')).toEqual({ kind: 'poll', pollNumber: 2_147_483_647 });
    for (const path of [
      '/poll-0',
      '/poll-03',
      '/poll-+3',
      '/poll-2147483648',
      '/poll-9999999999999999',
      '/poll-3/print',
    ]) {
      expect(screen(path), path).toEqual({ kind: 'not-found' });
    }
  });

  it('shows each place of the admin panel at its own address, and the 404 at an address that is none', () => {
    expect(screen('/admin')).toEqual({ kind: 'admin', place: { name: 'today' } });
    expect(screen('/admin/audit/')).toEqual({ kind: 'admin', place: { name: 'audit' } });
    expect(screen('/admin/polls/4/integrity')).toEqual({
      kind: 'admin',
      place: { name: 'poll', pollNumber: 4, tab: 'integrity' },
    });
    for (const path of ['/admin/nothing', '/admin/polls/0', '/admin/staff/2']) {
      expect(screen(path), path).toEqual({ kind: 'not-found' });
    }
  });

  it('follows ?redirect= only to a poll’s page', () => {
    expect(screen('/?redirect=poll-3')).toEqual({ kind: 'redirect', to: '/poll-3' });
    for (const redirect of ['poll-007', 'poll-2147483648', 'poll-3/print', 'faq']) {
      expect(screen(`/?redirect=${redirect}`).kind, redirect).toBe('home');
    }
  });
});
