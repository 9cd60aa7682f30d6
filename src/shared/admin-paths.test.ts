import { describe, expect, it } from 'vitest';
import { adminPath, parseAdminPath, placeNeeds, type AdminPlace } from './admin-paths.js';

describe('the admin panel’s addresses', () => {
  it('reads every place from its address, and writes the same address back', () => {
    const places: AdminPlace[] = [
      { name: 'today' },
      { name: 'polls' },
      { name: 'poll', pollNumber: 12, tab: 'poll' },
      { name: 'poll', pollNumber: 12, tab: 'integrity' },
      { name: 'suggestions' },
      { name: 'staff' },
      { name: 'audit' },
      { name: 'account' },
    ];
    for (const place of places) expect(parseAdminPath(adminPath(place))).toEqual(place);
    expect(parseAdminPath('/admin/staff/')).toEqual({ name: 'staff' });
  });

  it('is no place for any other address', () => {
    for (const path of [
      '/admin/nothing',
      '/admin/polls/0',
      '/admin/polls/01',
      '/admin/polls/abc',
      '/admin/staff/3',
      '/admin/polls/3/votes',
      '/admin/polls/9999999999',
      '/admin//polls',
      '/administrator',
    ]) {
      expect(parseAdminPath(path), path).toBeNull();
    }
  });

  it('asks what the permission table asks of each place', () => {
    expect(placeNeeds({ name: 'staff' })).toBe('staff.manage');
    expect(placeNeeds({ name: 'poll', pollNumber: 1, tab: 'integrity' })).toBe('integrity.read');
    expect(placeNeeds({ name: 'account' })).toBe('self');
  });
});
