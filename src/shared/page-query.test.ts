import { describe, expect, it } from 'vitest';
import { pageQueryString, readPageQuery } from './page-query.js';

const read = (query: string) => readPageQuery(new URLSearchParams(query));
const spelled = (query: string) => pageQueryString(read(query));

describe('the query string of the pages', () => {
  it('reads each parameter the app acts on', () => {
    expect(read('?view=archive&admin=true&outcome=counted&vote=2&poll=14')).toEqual({
      view: 'archive',
      adminTab: true,
      redirect: null,
      outcome: 'counted',
      pick: { optionIndex: 2, pollNumber: 14 },
      invite: null,
      signInLink: null,
    });
    expect(read('?redirect=poll-3').redirect).toBe(3);
    expect(read('?invite=abc').invite).toBe('abc');
    expect(read('?sign-in=xyz').signInLink).toBe('xyz');
    // Secrets never key a page the server keeps.
    expect(pageQueryString(read('?view=admin&invite=abc&sign-in=xyz'))).toBe('?view=admin');
    expect(read('?vote=0').pick).toEqual({ optionIndex: 0, pollNumber: null });
  });

  it('reads what it does nothing with as nothing at all', () => {
    const nothing = read('');
    for (const query of [
      '?x=1',
      '?view=today',
      '?view=nonsense',
      '?admin=yes',
      '?redirect=faq',
      '?outcome=hacked',
      '?vote=100',
      '?vote=one',
      '?poll=14',
      // A link made for no poll picks nothing, as one made for another poll does.
      '?vote=1&poll=007',
      '?vote=1&poll=',
      '?vote=1&poll=x',
    ]) {
      expect(read(query), query).toEqual(nothing);
      expect(spelled(query), query).toBe('');
    }
  });

  it('spells every query one way, and reads that spelling as the query it came from', () => {
    expect(spelled('?poll=14&x=1&vote=02&view=archive&view=suggest')).toBe('?view=archive&vote=2&poll=14');
    for (const query of [
      '?view=suggest',
      '?view=admin&admin=true',
      '?redirect=poll-12',
      '?outcome=already-voted',
      '?vote=3',
      '?vote=1&poll=9',
      '?x=1&view=archive&outcome=voting-closed&vote=5&poll=200&admin=true',
    ]) {
      expect(read(spelled(query)), query).toEqual(read(query));
      expect(spelled(spelled(query)), query).toBe(spelled(query));
    }
  });
});
