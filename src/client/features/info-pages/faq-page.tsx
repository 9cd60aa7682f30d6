/**
 * The FAQ: fifteen questions in five groups, each answer behind an expandable heading, then
 * "How we keep results honest", open, at its own anchor (every "votes set aside" note links it),
 * and a word on the adjusted line under closed polls, linking /methods.
 *
 * Each entry is a native `<details>` rather than Radix's accordion: the answers are in the page
 * the server sends, so they open and can be read (and found with the browser's find) with
 * scripts off, and hydrating the page measures and styles nothing. Radix's accordion leaves a
 * closed answer out of the page, and its layout effects forced a layout per entry at hydration
 * (a 36 ms task on the test VM, four times that on Lighthouse's phone).
 */
import type { ReactNode } from 'react';
import { PageShell } from '../../components/layout/page-shell.js';
import { Link } from '../../lib/router.js';
import { closeTimeLabel, timeZoneLabel } from '../../../shared/time-labels.js';
import { siteClock, siteConfig } from '../../lib/site-config.js';
import { MIN_GROUP_SIZE } from '../../../shared/profile.js';
import { HONEST_RESULTS } from '../../../shared/honest-results.js';
import { METHODS } from '../../../shared/methods.js';
import './info-pages.css';

const zone = timeZoneLabel(siteConfig.timeZone);
const closesAt = closeTimeLabel(siteClock);
const { siteName, brandName, brandUrl } = siteConfig;

interface Question {
  id: string;
  question: string;
  answer: ReactNode;
}

interface QuestionGroup {
  id: string;
  title: string;
  questions: Question[];
}

const GROUPS: QuestionGroup[] = [
  {
    id: 'voting',
    title: 'Voting',
    questions: [
      {
        id: 'sign-up',
        question: 'Do I need to sign up or create an account to vote?',
        answer: (
          <p>
            No. There is no sign-up and no account. Open the site, read today’s hot take and tap the answer you agree
            with. That’s it.
          </p>
        ),
      },
      {
        id: 'anonymous',
        question: 'Are my votes anonymous?',
        answer: (
          <>
            <p>
              Yes. We never show who voted for what. Everyone sees only the totals. To let you vote once per poll and
              see your own result, the site remembers your browser with an anonymous cookie holding a random code. It
              contains nothing about who you are.
            </p>
            <p>
              If you tell us a little about yourself (your role, the grade level you teach, your region and your years
              of experience), each answer is one of a few broad groups, never free text or a school name. Results by
              group show only groups of at least {MIN_GROUP_SIZE} votes, and only once voting has closed, so nobody can
              pick out a colleague’s vote.
            </p>
            <p>
              If you choose to give us your e-mail address, it is linked to your vote so our team can run the site. It
              is never shown publicly, and never next to your profile, not even to staff. Our{' '}
              <Link to="/privacy">Privacy &amp; Cookie Policy</Link> has the details.
            </p>
          </>
        ),
      },
      {
        id: 'vote-again',
        question: 'Can I vote more than once, or change my vote?',
        answer: (
          <p>
            You get one vote per poll, and votes can’t be changed once they’re in, so pick the answer that fits you
            best. That keeps every result fair for everyone.
          </p>
        ),
      },
      {
        id: 'phones',
        question: 'Does it work on my phone?',
        answer: (
          <p>
            Yes. {siteName} works in the web browser of any phone, tablet or computer, so there’s no app to install.
            It’s built for a quick vote between lessons.
          </p>
        ),
      },
    ],
  },
  {
    id: 'schedule',
    title: 'The daily poll and its results',
    questions: [
      {
        id: 'new-poll',
        question: 'How often is there a new poll?',
        answer: <p>Every day. A new hot take goes live at midnight ({zone}), and it’s the only poll open that day.</p>,
      },
      {
        id: 'close-time',
        question: 'When does voting close?',
        answer: (
          <p>
            Voting closes at {closesAt} each day. After that, the results are open for everyone to see until the next
            poll goes live at midnight.
          </p>
        ),
      },
      {
        id: 'see-results',
        question: 'When can I see the results?',
        answer: (
          <p>
            Right after you vote. You’ll see the percentage and number of votes for each answer, with a chart. If you
            didn’t vote, the results are shown to everyone once voting closes at {closesAt}.
          </p>
        ),
      },
      {
        id: 'past-polls',
        question: 'Where can I find past polls?',
        answer: (
          <p>
            Open the <Link to="/?view=archive">Results tab</Link>. It lists every past poll, newest first, and each one
            links to its final results.
          </p>
        ),
      },
    ],
  },
  {
    id: 'suggestions',
    title: 'Suggestions and comments',
    questions: [
      {
        id: 'suggest',
        question: 'Can I suggest a poll?',
        answer: (
          <>
            <p>
              Please do! Anyone can <Link to="/?view=suggest">suggest a poll</Link>. Write a question and 2 to 6 answer
              options. Your name and e-mail address are optional.
            </p>
            <p>
              Our team reviews every suggestion before it runs, and may tidy up the wording. We can’t use every
              suggestion, but we read them all.
            </p>
          </>
        ),
      },
      {
        id: 'comments',
        question: 'Can I comment on a poll?',
        answer: (
          <p>
            Commenting isn’t available. To keep the conversation going, share the poll with colleagues, or suggest a
            follow-up question.
          </p>
        ),
      },
    ],
  },
  {
    id: 'email',
    title: 'E-mail and the VIP list',
    questions: [
      {
        id: 'vip-list',
        question: 'What is the VIP list?',
        answer: (
          <p>
            It’s our e-mail list. Members get the results of each poll and a heads-up when a new poll goes live. After
            you vote, you’ll be invited to join. Just enter your e-mail address and agree to receive our e-mails.
          </p>
        ),
      },
      {
        id: 'email-optional',
        question: 'Do I have to give my e-mail address?',
        answer: (
          <p>
            No. Giving your e-mail is always optional. You can vote, see results, browse past polls and suggest polls
            without it.
          </p>
        ),
      },
      {
        id: 'unsubscribe',
        question: 'How do I unsubscribe?',
        answer: (
          <p>
            Every e-mail we send has an unsubscribe link. One click and you’re off the list, with no sign-in and no
            questions asked.
          </p>
        ),
      },
    ],
  },
  {
    id: 'about',
    title: 'About the site',
    questions: [
      {
        id: 'share',
        question: 'How do I share a poll?',
        answer: (
          <p>
            Use the Share button on the poll to send it with your device’s share menu or a social network, or copy the
            link and paste it wherever you like. After you vote, you can also share an image of the results chart. Every
            past poll has its own page, so you can share its results too.
          </p>
        ),
      },
      {
        id: 'who-runs-it',
        question: `Who runs ${siteName}?`,
        answer: (
          <p>
            {siteName} is run by <RunBy />. We want to hear what teachers really think, one quick question at a time.
          </p>
        ),
      },
    ],
  },
];

/**
 * What the site checks, in plain words: what it looks for and what happens to a vote, never the
 * figures that trip a rule (DESIGN.md, Vote integrity). Open, not behind a disclosure, since
 * links land on it.
 */
function HonestResults() {
  const headingId = `${HONEST_RESULTS.id}-heading`;
  return (
    <section id={HONEST_RESULTS.id} className="card honest-results" aria-labelledby={headingId}>
      <h2 id={headingId}>{HONEST_RESULTS.title}</h2>
      <p>
        A result is only worth sharing if real teachers made it. This is how we keep it that way, without accounts and
        without knowing who you are.
      </p>
      <ul>
        <li>
          <strong>One vote per browser.</strong> Each browser gets one vote on each poll.
        </li>
        <li>
          <strong>We look for signs of automated voting:</strong> unusual bursts of votes from one network, votes cast
          faster than a person could read the question, and the same answer coming in over and over from one place.
        </li>
        <li>
          <strong>A quick check, only where something looks wrong.</strong> When a network looks suspicious, or an
          unusual number of browsers vote from it for the first time, browsers voting here for the first time are asked
          to do a short check before their vote counts. The same happens for the whole poll when a sudden wave of votes
          from many places at once looks nothing like the votes before it. The browser does it on its own: there is
          nothing to click or type, and you wait a moment at most. If it takes longer than that (on an older phone it
          can take a few seconds), your vote is recorded at once and the page says it will be counted after a check;
          your browser finishes the check in the background and your vote counts as soon as it does, with the results
          shown then. For a script sending thousands of votes, the same check costs real computing time on every one. A
          browser that has voted here before is never asked because of someone else’s votes.
        </li>
        <li>
          <strong>Votes that can’t pass are held, not thrown away.</strong> A held vote is recorded, and its voter is
          told so: it will be counted after a check. Until then it is in no result, and its voter is shown none that
          would claim to include it. When the check on its network ends, or voting closes, held votes that look like a
          person’s (cast from the page, after reading the question) and split like everyone else’s are counted without
          anyone having to step in; the rest wait for our staff.
        </li>
        <li>
          <strong>People review, and can undo.</strong> Our staff are told by e-mail when something looks wrong. They
          review held and suspicious votes, and can set votes aside or restore them. Every action is logged. After
          thirty days, votes that were held or set aside are deleted along with the other checking details; counted
          votes stay.
        </li>
        <li>
          <strong>Results say so.</strong> Once voting has closed, wherever results appear, they say how many votes were
          set aside after review.
        </li>
        <li>
          <strong>Schools are welcome.</strong> Colleagues voting from one school’s network is normal, and a network is
          never held just for being busy.
        </li>
        <li>
          <strong>No addresses are stored.</strong> To tell networks apart we keep only a scrambled code, which can’t be
          turned back into an address and changes every day.
        </li>
      </ul>
      <p>We don’t publish the exact rules: that would only help someone get around them.</p>
    </section>
  );
}

function RunBy() {
  if (!brandName) return <>the {siteName} team</>;
  if (!brandUrl) return <>{brandName}</>;
  return (
    <a href={brandUrl} target="_blank" rel="noopener noreferrer">
      {brandName}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

export default function FaqPage() {
  return (
    <PageShell title="Frequently Asked Questions">
      <h1 className="info-page__title">Frequently Asked Questions</h1>
      <p className="info-page__lead">
        Everything you need to know about {siteName}: how voting works, what happens to your vote, and how to get
        involved.
      </p>

      <div className="faq">
        {GROUPS.map((group) => (
          <section key={group.id} className="faq__group" aria-labelledby={`faq-${group.id}`}>
            <h2 id={`faq-${group.id}`} className="faq__group-title">
              {group.title}
            </h2>
            {group.questions.map(({ id, question, answer }) => (
              <details key={id} className="faq__item">
                <summary className="faq__trigger">
                  <h3 className="faq__question">{question}</h3>
                  <svg className="faq__chevron" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                    <path d="M6 9l6 6 6-6" />
                  </svg>
                </summary>
                <div className="faq__answer">{answer}</div>
              </details>
            ))}
          </section>
        ))}
      </div>

      <HonestResults />

      <section id="adjusted-results" className="card honest-results" aria-labelledby="adjusted-results-heading">
        <h2 id="adjusted-results-heading">Adjusted to the mix of US K-12 teachers</h2>
        <p>
          Whoever turns up to vote is not a mirror of all teachers: a poll shared in a high-school group fills with
          high-school teachers. Once a poll has closed, a line under its result may count the classroom teachers’ votes
          in the proportions of US K-12 teachers by grade level, region and years teaching. The result as voted stays
          the headline. <Link to={METHODS.path}>{METHODS.linkText}</Link>, and what adjusting cannot fix.
        </p>
      </section>

      <section className="card info-page__cta" aria-labelledby="faq-cta">
        <h2 id="faq-cta">Ready to share your take?</h2>
        <p>Today’s poll takes seconds. Got a question other teachers should answer? Send it in.</p>
        <div className="info-page__actions">
          <Link to="/" className="button button--primary">
            Start Voting Now
          </Link>
          <Link to="/?view=suggest" className="button button--secondary">
            Suggest a Poll
          </Link>
        </div>
      </section>
    </PageShell>
  );
}
