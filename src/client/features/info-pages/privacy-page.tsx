/** The Privacy & Cookie Policy: what this site really stores, why, for how long, and your choices. */
import type { ReactNode } from 'react';
import { ContactUs } from './contact-us.js';
import { ForgetBrowser } from './forget-browser.js';
import { PageShell } from '../../components/layout/page-shell.js';
import { Link } from '../../lib/router.js';
import { siteConfig } from '../../lib/site-config.js';
import { METHODS } from '../../../shared/methods.js';
import { BREAKDOWN_ROUNDING_BASE, MIN_GROUP_SIZE } from '../../../shared/profile.js';
import { STORED_DATA } from '../../../shared/stored-data.js';
import { LabelledSection } from '../../components/layout/labelled-section.js';
import './info-pages.css';

const { siteName, brandName } = siteConfig;
/** Who "we" are: the parent brand when there is one, otherwise the site's own team. */
const operator = brandName ?? `the ${siteName} team`;

interface CookieCategory {
  name: string;
  inUse: boolean;
  about: string;
  onThisSite: ReactNode;
}

const COOKIE_CATEGORIES: CookieCategory[] = [
  {
    name: 'Necessary',
    inUse: true,
    about: 'Needed for the site to work. Without them, core features such as voting would break.',
    onThisSite: (
      <ul>
        <li>
          <code>voter_id</code>: the anonymous voter cookie, so you can vote once per poll and see your own choice and
          stats. Kept for up to 400 days, renewed when you vote.
        </li>
        <li>
          A sign-in session cookie, set only for staff while they are signed in to the admin panel. Visitors never get
          it.
        </li>
      </ul>
    ),
  },
  {
    name: 'Functional',
    inUse: true,
    about:
      'Remember your choices so the site is easier to use. On this site these live in your browser’s local storage, not in cookies.',
    onThisSite: (
      <ul>
        <li>
          <code>voterEmail</code>: your e-mail address, only if you gave one.
        </li>
        <li>
          <code>emailModalSeen</code>: whether you have seen or dismissed the subscribe pop-up.
        </li>
        <li>
          <code>emailSubscribed</code>: whether you have subscribed.
        </li>
        <li>
          <code>profileInvitationDismissed</code>: whether you chose “Not now” when asked to describe yourself.
        </li>
        <li>
          <code>adminAuthenticated</code>: for staff only, whether they are signed in to the admin panel.
        </li>
      </ul>
    ),
  },
  {
    name: 'Analytics',
    inUse: false,
    about: 'Measure how visitors use a website, usually through an outside analytics service.',
    onThisSite: <p>None. We don’t use any analytics services.</p>,
  },
  {
    name: 'Advertisement',
    inUse: false,
    about: 'Follow you across websites to show you targeted ads.',
    onThisSite: <p>None. {siteName} shows no ads and sets no advertising cookies.</p>,
  },
];

export default function PrivacyPage() {
  return (
    <PageShell title="Privacy & Cookie Policy">
      <h1 className="info-page__title">Privacy &amp; Cookie Policy</h1>
      <p className="info-page__updated">Last updated November 26, 2026</p>

      <div className="card info-page__body">
        <p className="info-page__lead">
          This policy explains what {siteName} stores about you, why, for how long, and the choices you have. In it,
          “we” and “us” means {operator}.
        </p>

        <LabelledSection id="privacy-summary" className="info-page__summary" heading="The short version">
          <ul>
            <li>You can vote without an account. We recognise your browser with an anonymous, random cookie.</li>
            <li>We only have your e-mail address if you choose to give it, and you can unsubscribe with one click.</li>
            <li>
              Telling us about yourself (role, grade level, region, experience) is optional, in broad groups only, and
              results by group never show a group of fewer than {MIN_GROUP_SIZE} votes.
            </li>
            <li>We don’t store IP addresses.</li>
            <li>No ads, no third-party trackers, no analytics services, and we never sell your data.</li>
          </ul>
        </LabelledSection>

        <LabelledSection id="privacy-collect" heading="What we store and why">
          <h3>Your votes and the voter cookie</h3>
          <p>
            The first time you vote, we give your browser a cookie named <code>voter_id</code>. It holds a random
            identifier, the time we first gave it, and our server’s signature (so nobody can make one up), and nothing
            about who you are. It is HttpOnly, which means scripts on the page can’t read it. It is kept for up to 400
            days and renewed each time you vote.
          </p>
          <p>
            We use it only so you can vote once per poll and see your own choice and your stats (how many polls you have
            voted on and your day streak). With each vote we store the poll, the answer you chose, when you voted and
            this identifier.
          </p>

          <h3>Your profile, only if you fill it in</h3>
          <p>
            You can tell us four things about yourself, so that results can be shown for “teachers like you”: your role,
            the grade level you teach, your region (one of four US regions, or outside the US) and your years of
            experience. Each answer is picked from a short list of broad groups; you can skip any of them, change them
            or clear them at any time. We never ask for free text, your name or your school.
          </p>
          <p>
            The profile is stored with the anonymous identifier of your voter cookie. When you vote, your vote is added
            to the count of each of your groups, and the vote keeps a copy of your four answers (never the time you
            filled them in), so that the weighted result can be worked out exactly. Changing your profile later does not
            change the results of past polls; it does change today’s, while voting is open, so that telling us about
            yourself after voting still counts. “Forget this browser” deletes your profile and the copies on your votes
            at once; the counts your votes were already added to, and weighted results already published, stay as they
            are, without anything that points to you.
          </p>
          <p>
            Results by group are shown only after voting has closed for the day, and only for groups of at least{' '}
            {MIN_GROUP_SIZE} votes. Smaller groups are never shown or exported, to anyone: they are counted as
            “withheld”. Nor can they be worked out by taking the groups shown from everyone’s result: where fewer than{' '}
            {MIN_GROUP_SIZE} votes would be left, the smallest group shown is withheld too. Every number in them is
            rounded to a multiple of {BREAKDOWN_ROUNDING_BASE}, at random, once, when voting closes, and never changes
            after: see <a href={`${METHODS.path}#methods-groups`}>how we count</a>. Staff see the same results by group
            as everyone else, and neither the vote export nor the list of e-mail addresses carries profiles: nobody,
            staff included, can tie a profile to an e-mail address or to the time of a vote.
          </p>

          <h3>Your e-mail address, only if you give it</h3>
          <p>We store an e-mail address only when you give us one, which can happen in three ways:</p>
          <ul>
            <li>
              <strong>You subscribe</strong> to our e-mail list (the “VIP list”). We also record when you subscribed,
              which poll you subscribed from, and the consent wording you agreed to. Subscribing right after a vote also
              attaches your address to that vote.
            </li>
            <li>
              <strong>You attach your e-mail to your vote.</strong> Then that address can’t be used to vote again on the
              same poll from another browser.
            </li>
            <li>
              <strong>You add it to a poll suggestion</strong>, together with your name if you give one, so our team can
              get back to you.
            </li>
          </ul>
          <p>
            If you subscribe, we first send one e-mail asking you to confirm, and nothing else until you do: nobody can
            sign someone else up. Once you confirm, we send you poll results and news of new polls. Every e-mail has an
            unsubscribe link: one click and the e-mails stop.
          </p>

          <h3>Reminders in your browser, only if you turn them on</h3>
          <p>
            If you choose “Remind me in this browser” after a vote, your browser asks whether {siteName} may show you
            notifications, and then gives us a push address: a web address at your browser maker’s push service, with
            two keys only your browser can use to read what we send. We store it with the anonymous identifier of your
            voter cookie and the reminder settings you chose (the time, your time zone, the days, and a pause if you set
            one). We treat the push address as personal data: our logs only ever hold a scrambled fingerprint of it.
          </p>
          <p>
            The push service belongs to the company that makes your browser: Google (Firebase Cloud Messaging) for
            Chrome, Edge on Android, Samsung Internet and Opera; Mozilla for Firefox; Apple for Safari on Mac, iPhone
            and iPad; Microsoft (Windows Push Notification Services) for Edge on Windows. For each reminder, it receives
            the push address, an encrypted message it can’t read, how long to keep it (until voting closes), and our
            site’s public key. The message itself holds only our site’s name, today’s question and the address of
            today’s page: never results or anything about you.
          </p>
          <p>
            We send at most one reminder a day, at your chosen time, and none once you have voted that day. You can
            change the settings or turn reminders off at any time on the <a href="/reminders">Reminders</a> page, or by
            blocking notifications in your browser. A push address we have not seen used for 60 days (no visit, no vote)
            is deleted, and “Forget this browser” below deletes it at once.
          </p>

          <h3>Poll suggestions</h3>
          <p>
            When you suggest a poll, we store your question and answer options, plus your name and e-mail address if you
            choose to give them. Our team reads suggestions to decide which polls to run.
          </p>

          <h3>Things kept only on your device</h3>
          <p>
            Your browser’s local storage keeps a few small items on your device only, so the site remembers your
            choices: your e-mail address if you gave one, whether you saw or dismissed the subscribe pop-up, whether you
            subscribed, and for staff, whether they are signed in to the admin panel. They are listed by name under{' '}
            <a href="#privacy-cookies">Cookies and similar technologies</a>.
          </p>

          <h3>IP addresses and server logs</h3>
          <p>
            We don’t store IP addresses. To limit abusive request rates (for example, a flood of automated votes), our
            server counts requests under a scrambled code of your network made with a key that is replaced every day and
            deleted, so after a day no count can be traced back to an address. Our server logs never contain e-mail
            addresses or IP addresses.
          </p>
        </LabelledSection>

        <LabelledSection id="privacy-tables" heading="Everything our database holds, table by table">
          <p>
            This list is the whole of our database: a test checks it against the database itself, so nothing is kept
            that is not listed here.
          </p>
          {/* Focusable, so a keyboard can scroll it sideways on a narrow screen. */}
          <div className="info-page__table-wrap" role="region" aria-label="The tables, scrollable" tabIndex={0}>
            <table className="info-page__table">
              <thead>
                <tr>
                  <th scope="col">Table</th>
                  <th scope="col">What it holds</th>
                  <th scope="col">Why</th>
                  <th scope="col">How long</th>
                </tr>
              </thead>
              <tbody>
                {STORED_DATA.map(({ table, what, why, howLong, columns }) => (
                  <tr key={table}>
                    <th scope="row">
                      <code>{table}</code>
                    </th>
                    <td>
                      {what} <span className="info-page__columns">Columns: {columns.join(', ')}.</span>
                    </td>
                    <td>{why}</td>
                    <td>{howLong}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </LabelledSection>

        <LabelledSection id="privacy-cookies" heading="Cookies and similar technologies">
          <p>
            Cookies and local storage are small pieces of information a website keeps in your browser. They fall into
            four categories. Here is what each one means and what {siteName} uses.
          </p>
          <dl className="cookie-categories">
            {COOKIE_CATEGORIES.map(({ name, inUse, about, onThisSite }) => (
              <div key={name} className="cookie-categories__item">
                <dt className="cookie-categories__name">
                  {name}
                  <span className={`pill cookie-categories__status${inUse ? '' : ' cookie-categories__status--off'}`}>
                    {inUse ? 'Used' : 'Not used'}
                  </span>
                </dt>
                <dd className="cookie-categories__details">
                  <p>{about}</p>
                  <p className="cookie-categories__label">On this site:</p>
                  {onThisSite}
                </dd>
              </div>
            ))}
          </dl>
          <p>
            You can delete cookies and site data in your browser’s settings at any time. If you do, you’ll lose your
            stats, and this browser will no longer show which polls you have voted on.
          </p>
        </LabelledSection>

        <LabelledSection id="privacy-never" heading="What we don’t do">
          <ul>
            <li>We show no advertising.</li>
            <li>We use no third-party trackers and no analytics services.</li>
            <li>We never sell or rent your data, and we don’t share it for marketing.</li>
          </ul>
        </LabelledSection>

        <LabelledSection id="privacy-access" heading="Who can see your information">
          <ul>
            <li>
              <strong>Everyone</strong> sees only poll totals: percentages and vote counts, overall and, after the
              close, for groups of at least {MIN_GROUP_SIZE} votes. Nobody else can see how you voted.
            </li>
            <li>
              <strong>Our staff</strong> can see e-mail addresses attached to votes, and the names and e-mail addresses
              given with suggestions. They use them only to run the site, for example to review suggestions, keep voting
              fair and send the e-mails you asked for.
            </li>
            <li>
              <strong>Social networks</strong>: if you share a poll through one, that network receives what you share,
              and its own privacy policy applies.
            </li>
          </ul>
          <p>We don’t give your information to anyone else, unless the law requires us to.</p>
        </LabelledSection>

        <LabelledSection id="privacy-retention" heading="How long we keep it">
          <ul>
            <li>
              <strong>Votes</strong> are kept as part of the poll results, which stay on the site as past polls.
            </li>
            <li>
              <strong>Your e-mail address</strong> is kept until you unsubscribe or ask us to delete it. An address
              whose subscription was never confirmed is deleted after a week.
            </li>
            <li>
              <strong>The voter cookie</strong> lasts up to 400 days after your last vote, unless you delete it sooner.
            </li>
            <li>
              <strong>Your profile</strong>, and its copy on each of your votes, is kept until you change it or forget
              this browser (below). The counts by group stay with the poll results, without anything that points to you.
            </li>
            <li>
              <strong>Local storage items</strong> stay on your device until you clear your browser’s site data.
            </li>
          </ul>
        </LabelledSection>

        <LabelledSection id="privacy-rights" heading="Your rights and choices">
          <ul>
            <li>You can ask to see the information we hold about you, and ask us to correct or delete it.</li>
            <li>You can unsubscribe from our e-mails at any time with the link in every e-mail.</li>
            <li>You can delete the voter cookie and local storage items in your browser’s settings.</li>
            <li>
              You can forget this browser with the button on this page: we delete your profile and remove its copies and
              your e-mail address from your votes (the votes stay counted, anonymously), and your browser’s voter cookie
              is cleared.
            </li>
          </ul>
          <ForgetBrowser />
          <p>
            To make a request, contact us as described under <a href="#privacy-contact">Contact us</a>. Because votes
            are anonymous, please tell us the e-mail address you used so we can find your information.
          </p>
        </LabelledSection>

        <LabelledSection id="privacy-children" heading="Children">
          <p>
            Users under 13 may not use {siteName}, and users under 18 may use it only with the approval of a parent or
            guardian (see our <Link to="/terms">Terms of Service</Link>). If we learn that we hold an e-mail address
            from a child under 13, we will delete it.
          </p>
        </LabelledSection>

        <LabelledSection id="privacy-changes" heading="Changes to this policy">
          <p>
            If we change this policy, we’ll post the new version on this page and update the “Last updated” date, at
            least 14 days before the changes take effect.
          </p>
        </LabelledSection>

        <LabelledSection id="privacy-contact" heading="Contact us">
          <p>
            <ContactUs topic="Questions or requests about your information?" />
          </p>
        </LabelledSection>
      </div>
    </PageShell>
  );
}
