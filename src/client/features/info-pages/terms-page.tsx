/** The Terms of Service, in plain language. */
import { PageShell } from '../../components/layout/page-shell.js';
import { ContactUs } from './contact-us.js';
import { Link } from '../../lib/router.js';
import { siteConfig } from '../../lib/site-config.js';
import { OPEN_DATA_LICENSE, OPEN_DATA_PATHS } from '../../../shared/open-data.js';
import { MIN_GROUP_SIZE } from '../../../shared/profile.js';
import { LabelledSection } from '../../components/layout/labelled-section.js';
import './info-pages.css';

const { siteName, brandName } = siteConfig;
/** Who "we" are: the parent brand when there is one, otherwise the site's own team. */
const operator = brandName ?? `the ${siteName} team`;

export default function TermsPage() {
  return (
    <PageShell title="Terms of Service">
      <h1 className="info-page__title">Terms of Service</h1>
      <p className="info-page__updated">Last updated November 21, 2026</p>

      <div className="card info-page__body">
        <p className="info-page__lead">
          These terms explain the rules for using {siteName}. In them, “we” and “us” means {operator}, and “you” means
          anyone who uses the site. By using {siteName}, you agree to these terms and to our{' '}
          <Link to="/privacy">Privacy &amp; Cookie Policy</Link>. If you don’t agree, please don’t use the site.
        </p>

        <LabelledSection id="terms-service" heading={`1. What ${siteName} is`}>
          <p>
            {siteName} is a free website where teachers and educators answer one opinion poll about education each day,
            anonymously. You can vote, see the results, browse past polls, suggest new polls and, if you wish, join our
            e-mail list. Voting needs no account.
          </p>
        </LabelledSection>

        <LabelledSection id="terms-age" heading="2. Who may use it">
          <ul>
            <li>
              <strong>Users under 13 may not use the service.</strong>
            </li>
            <li>
              <strong>Users under 18 may use it only with the approval of a parent or guardian.</strong>
            </li>
          </ul>
          <p>{siteName} is meant for teachers, educators and others interested in education.</p>
        </LabelledSection>

        <LabelledSection id="terms-use" heading="3. Acceptable use">
          <p>To keep the polls fair and the site working for everyone, you agree:</p>
          <ul>
            <li>
              to vote only once per poll, and not to get around this limit (for example by clearing cookies or using
              other browsers or devices to vote again);
            </li>
            <li>
              not to vote with bots, scripts or any other automated means, and not to scrape or copy the site’s data by
              automated means;
            </li>
            <li>not to try to disrupt, overload, break into or get around the security of the site;</li>
            <li>
              not to submit anything unlawful, abusive, hateful, harassing, obscene or misleading, or anything that
              shares someone else’s personal information, in a poll suggestion or elsewhere on the site.
            </li>
          </ul>
        </LabelledSection>

        <LabelledSection id="terms-suggestions" heading="4. Poll suggestions">
          <p>
            When you suggest a poll, you give us permission, free of charge and without time limit, to use, edit and
            publish your suggestion, in whole or in part, on {siteName} and in our e-mails. You confirm that the
            suggestion is your own and that you have the right to share it.
          </p>
          <p>
            Our team reviews every suggestion before it runs. We may edit a suggestion, choose not to use it, or delete
            it, at our discretion. We won’t publish your name or e-mail address with a poll.
          </p>
        </LabelledSection>

        <LabelledSection id="terms-results" heading="5. Poll results">
          <p>
            Results on {siteName} are informal opinion polls, not scientific surveys. Anyone can take part, voters are
            not a representative sample, and the numbers show only how the people who chose to vote answered. Please
            don’t rely on them as research, as professional advice or for decisions that matter.
          </p>
          <p>
            The results of past polls are open data: you may share and adapt them, for any purpose, under the{' '}
            <a href={OPEN_DATA_LICENSE.url}>
              {OPEN_DATA_LICENSE.title} license ({OPEN_DATA_LICENSE.name})
            </a>
            , as long as you credit “{siteName}” with a link to{' '}
            <a href={siteConfig.publicUrl}>{siteConfig.publicUrl}</a>. They are published as{' '}
            <a href={OPEN_DATA_PATHS.json}>JSON</a>, <a href={OPEN_DATA_PATHS.csv}>CSV</a> and an{' '}
            <a href={OPEN_DATA_PATHS.feed}>Atom feed</a>. Breakdowns by group leave out every group of fewer than{' '}
            {MIN_GROUP_SIZE} votes, as on the site.
          </p>
        </LabelledSection>

        <LabelledSection id="terms-email" heading="6. Our e-mail list">
          <p>
            Joining our e-mail list (the “VIP list”) is optional. If you join, we’ll send you poll results and news of
            new polls. Every e-mail has a one-click unsubscribe link, and you can unsubscribe at any time. How we handle
            your e-mail address is explained in our <Link to="/privacy">Privacy &amp; Cookie Policy</Link>.
          </p>
        </LabelledSection>

        <LabelledSection id="terms-warranty" heading="7. No warranty">
          <p>
            We work hard to keep {siteName} running well, but we provide it “as is” and “as available”. We can’t promise
            that it will always be available, free of errors or secure, or that any poll or result is complete or
            accurate. We may change, pause or stop any part of the site at any time.
          </p>
        </LabelledSection>

        <LabelledSection id="terms-liability" heading="8. Limitation of liability">
          <p>
            {siteName} is a free service, and you use it at your own risk. As far as the law allows, we are not
            responsible for any loss or damage that comes from using, or not being able to use, the site or anything on
            it, including any decision you make based on poll results. Nothing in these terms limits any rights you have
            by law that cannot be limited.
          </p>
        </LabelledSection>

        <LabelledSection id="terms-ending" heading="9. Ending access">
          <p>
            You can stop using {siteName} at any time, and unsubscribe from our e-mails with one click. We may limit,
            suspend or end anyone’s access, and remove what they have submitted, if we believe they have broken these
            terms or are harming the site or other users.
          </p>
        </LabelledSection>

        <LabelledSection id="terms-changes" heading="10. Changes to these terms">
          <p>
            We may update these terms from time to time. When we do, we’ll post the new version on this page and update
            the “Last updated” date. <strong>Changes take effect no earlier than 14 days after they are posted.</strong>{' '}
            If you keep using {siteName} after that, you accept the updated terms.
          </p>
        </LabelledSection>

        <LabelledSection id="terms-contact" heading="11. Contact us">
          <p>
            <ContactUs topic="Questions about these terms?" /> Answers to common questions are in our{' '}
            <Link to="/faq">FAQ</Link>.
          </p>
        </LabelledSection>
      </div>
    </PageShell>
  );
}
