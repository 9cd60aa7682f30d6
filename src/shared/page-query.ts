/**
 * The query string of the app's pages: the parameters they read and the values each acts on.
 * Any other parameter, any other value, a second copy of one, or another order, shows the same
 * page as its `pageQueryString`. The app reads its query only through `readPageQuery`, and the
 * server keys the pages it draws on `pageQueryString` (pages/ssr-pages.ts), so a made-up query
 * string never makes it draw a page again, and the page it serves is the one the browser shows.
 */
import { pollParameter, redirectToPoll } from './poll-links.js';
import { isVoteNotice, type VoteNotice } from './ssr.js';

/** The main page's views (`/?view=`); `today` when none is given or the one given is unknown. */
export const MAIN_VIEWS = ['today', 'archive', 'suggest', 'admin'] as const;
export type MainView = (typeof MAIN_VIEWS)[number];

export interface PageQuery {
  view: MainView;
  /** `?admin=true`: the bottom bar shows the staff tab. */
  adminTab: boolean;
  /** `?redirect=poll-N`, an old form of a poll's address: the app moves to /poll-N. */
  redirect: number | null;
  /** `?outcome=`: what became of a vote the form sent without scripts. */
  outcome: VoteNotice | null;
  /**
   * `?vote=k&poll=N`: an embed's pick of option k, made for poll N (any poll without `poll`).
   * A `poll` that is no poll number was made for no poll: it picks nothing, as none does.
   */
  pick: { optionIndex: number; pollNumber: number | null } | null;
  /**
   * `/admin?invite=` and `/admin?sign-in=`: staff links of the old form, whose token travelled in
   * the query (now in the fragment: staff-links.ts); the sign-in screen says they no longer work.
   * Secrets: never part of `pageQueryString`, so no drawn page is kept per token.
   */
  invite: string | null;
  signInLink: string | null;
}

const isMainView = (value: string | null): value is MainView => MAIN_VIEWS.some((view) => view === value);
const OPTION_INDEX = /^\d{1,2}$/;

function pickOf(search: URLSearchParams): PageQuery['pick'] {
  const vote = search.get('vote');
  if (vote === null || !OPTION_INDEX.test(vote)) return null;
  const poll = search.get('poll');
  const pollNumber = poll === null ? null : pollParameter.parse(poll);
  if (poll !== null && pollNumber === null) return null;
  return { optionIndex: Number(vote), pollNumber };
}

export function readPageQuery(search: URLSearchParams): PageQuery {
  const view = search.get('view');
  const redirect = search.get('redirect');
  const outcome = search.get('outcome');
  return {
    view: isMainView(view) ? view : 'today',
    adminTab: search.get('admin') === 'true',
    redirect: redirect === null ? null : redirectToPoll.parse(redirect),
    outcome: isVoteNotice(outcome) ? outcome : null,
    pick: pickOf(search),
    invite: search.get('invite'),
    signInLink: search.get('sign-in'),
  };
}

/** The query in one spelling ('' or '?…'): every query that reads the same gives the same string. */
export function pageQueryString(query: PageQuery): string {
  const search = new URLSearchParams();
  if (query.view !== 'today') search.set('view', query.view);
  if (query.adminTab) search.set('admin', 'true');
  if (query.redirect !== null) search.set('redirect', redirectToPoll.path(query.redirect));
  if (query.outcome !== null) search.set('outcome', query.outcome);
  if (query.pick) {
    search.set('vote', String(query.pick.optionIndex));
    if (query.pick.pollNumber !== null) search.set('poll', pollParameter.path(query.pick.pollNumber));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
