/**
 * Limits that the browser's forms and the server both apply. The server enforces them; the
 * client uses them to help people stay inside them. They live in code rather than in the
 * environment because both halves must agree, and changing one is a product decision that
 * ships with a release.
 */

/** Ids and poll numbers are `integer` columns (32 bits on PostgreSQL): none can be larger. */
export const ID_MAX = 2_147_483_647;

/** Fits the question banner on a 360 px phone and a link preview without cutting it. */
export const QUESTION_MAX_LENGTH = 280;

/** A short paragraph of context; longer text belongs in a linked article. */
export const DESCRIPTION_MAX_LENGTH = 500;

/** A poll needs a real choice. */
export const OPTIONS_MIN = 2;

/** Six answer buttons still fit a phone screen, and the chart palette has six colours. */
export const OPTIONS_MAX = 6;

/** One option is one button: long labels wrap badly and get cut in the chart legend. */
export const OPTION_MAX_LENGTH = 100;

/** RFC 5321 limits a forward path to 256 octets, 254 of them the address itself. */
export const EMAIL_MAX_LENGTH = 254;

/**
 * At most this many suggestions in one page of a staff list: about 110 KB with every field
 * full, quick to send and to draw however many suggestions wait.
 */
export const SUGGESTIONS_PAGE_MAX = 100;

/** Enough for "Ms. Alexandra Montgomery-Richardson, 5th grade" and no essay. */
export const NAME_MAX_LENGTH = 100;

/**
 * A valid e-mail address, as the browser's `<input type=email>` checks it (the WHATWG rule:
 * an ASCII local part without spaces, quotes, angle brackets, commas, colons or parentheses,
 * and a domain of dot-separated labels), plus the spec's dot in the domain. Server and browser
 * agree, and no address a mail library could read as a list, a group or a display name gets
 * through ("a@x.org,b@y.org", "x<a@y.org>", "g:a@y.org;", "(c)a@y.org").
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** A ballot token (src/server/integrity/ballot.ts) is about 80 characters; anything longer is not one. */
export const BALLOT_TOKEN_MAX_LENGTH = 200;

/** An ALTCHA solution (base64 JSON of the challenge, salt, number and signature) is under 1 KB. */
export const PROOF_MAX_LENGTH = 2_000;

/**
 * Why staff set votes aside, or released them: a sentence or two for whoever reads the integrity
 * log later ("400 votes in 6 minutes from one network, 95% one option, no ballots").
 */
export const INTEGRITY_REASON_MAX_LENGTH = 500;

/**
 * A staff note, "What we learned": a short paragraph or two under the results, quoted in link
 * previews and the weekly digest.
 */
export const NOTE_MAX_LENGTH = 2_000;

/** Staff passwords: at least this long (NIST SP 800-63B's advice for a password alone is 15). */
export const STAFF_PASSWORD_MIN_LENGTH = 15;

/** A topic's name: "Curriculum and assessment" fits, with room; a list people scan, not a sentence. */
export const TOPIC_NAME_MAX_LENGTH = 40;

/** A short list the owner keeps (issue 39): enough for every subject, few enough to scan. */
export const TOPICS_MAX = 30;

/** Topics one poll may have: a poll about everything is about nothing. */
export const TOPICS_PER_POLL_MAX = 5;

/**
 * A search is a few words: longer is refused (400) rather than read, so a 10 KB query costs
 * nothing. Only the first SEARCH_TERMS_MAX words count.
 */
export const SEARCH_QUERY_MAX_LENGTH = 200;
export const SEARCH_TERMS_MAX = 10;

/** Search results per page, and the pages one may ask for. */
export const SEARCH_PAGE_SIZE = 20;
export const SEARCH_PAGES_MAX = 50;
