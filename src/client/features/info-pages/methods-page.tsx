/**
 * /methods: how the weighted line under a closed poll's result is made, in the manner of
 * AAPOR's disclosure standards: who takes part and how, what the line describes, the variables
 * and their sources, how the adjustment is done, why no margin of error is given, the limits,
 * the privacy rule for breakdowns and how results are kept honest. Every figure (targets, school
 * years, thresholds, the cap) is read from /data/weighting.json, as the server drew it: nothing
 * is typed twice, and the page reads the same with scripts off.
 */
import type { WeightingData } from '../../../shared/api.js';
import { HONEST_RESULTS } from '../../../shared/honest-results.js';
import { OPEN_DATA_PATHS, WEIGHTING_DATA_PATH } from '../../../shared/open-data.js';
import { BREAKDOWN_ROUNDING_BASE, MIN_GROUP_SIZE } from '../../../shared/profile.js';
import { closeTimeLabel } from '../../../shared/time-labels.js';
import { METHODS } from '../../../shared/methods.js';
import { weightedLine } from '../../../shared/weighted-line.js';
import { WEIGHTING_MARGINS, WITHHELD_REASON_TEXT } from '../../../shared/weighting.js';
import { useWeightingData } from '../../api/get-weighting-data.js';
import { PageShell } from '../../components/layout/page-shell.js';
import { Link } from '../../lib/router.js';
import { trackersPath } from '../../../shared/trackers.js';
import { siteClock, siteConfig } from '../../lib/site-config.js';
import { LabelledSection } from '../../components/layout/labelled-section.js';
import './info-pages.css';

const { siteName } = siteConfig;

/** The line the page shows as an example: made by the function every page uses. */
const EXAMPLE = { percentages: [58, 42], votesInScope: 512, effectiveSample: 310, designEffect: 1.65 };
/** Its credibility interval, as a bootstrap of 310 effective votes would give it. */
const EXAMPLE_INTERVAL = { low: [52, 36], high: [64, 48], designEffects: [1.65, 1.65], seed: 1 };
const exampleLine = (data: WeightingData) =>
  weightedLine(
    {
      population: data.population,
      ...EXAMPLE,
      interval: { ...EXAMPLE_INTERVAL, replicates: data.rules.interval.replicates },
    },
    ['Yes', 'No'],
  )?.text;

export default function MethodsPage() {
  const { data, isError } = useWeightingData();
  return (
    <PageShell title={METHODS.title}>
      <h1 className="info-page__title">{METHODS.title}</h1>
      <p className="info-page__lead">
        Every result on {siteName} is, first of all, what the teachers who voted said: that stays the headline. Once a
        poll has closed, a second line may sit under it, adjusted to the mix of US K-12 teachers. This page says who
        takes part, what that line describes, how we work it out and what it cannot do.
      </p>
      <div className="card info-page__body">
        <WhoTakesPart />
        {data ? (
          <Adjustment data={data} />
        ) : (
          <p role="status">
            {isError ? 'The figures could not be loaded. Please try again.' : 'Loading the figures…'}{' '}
            <a href={WEIGHTING_DATA_PATH}>See them as data</a>.
          </p>
        )}
        <Limits />
        <LabelledSection id="methods-groups" heading="Results by group">
          <p>
            Results by role, grade level, region and years teaching show only groups of at least {MIN_GROUP_SIZE} votes,
            and only once voting has closed, so that nobody can work out a colleague’s vote. A smaller group is never
            shown or exported; its votes are counted as withheld. Votes held or set aside after review are in no group
            and never count toward a group’s size.
            {data && (
              <>
                {' '}
                A group shown gets an adjusted line of its own only with at least {data.rules.group.minVotes} classroom
                teachers’ votes in scope and an effective sample of at least {data.rules.group.minEffectiveSample}.
              </>
            )}
          </p>
          <p>
            Every number in a breakdown is rounded to a multiple of {BREAKDOWN_ROUNDING_BASE}: usually the nearest one,
            but at random, so 7 votes are most often shown as 5, sometimes as 10, and now and then further off.
            Percentages are worked out from the rounded numbers, and numbers rounded one by one may not add up to a
            group’s total. Statistical offices publish small counts the same way.
          </p>
          <p>
            Why: suppose someone knows how everyone in a group voted except one colleague, perhaps because they made up
            the other voters themselves. With exact numbers, taking away the votes they know leaves the colleague’s
            vote. With rounded numbers, what is left is off by a few votes either way, and because the rounding is
            random, nothing they can do, not even making up just the right number of voters, makes any answer certain:
            the most it can do is tilt a guess. The rounding is done once, when voting closes, and kept, so the numbers
            are the same every time anyone looks.
          </p>
          <p>
            Breakdowns do not change after voting closes. If staff later count a held vote or set votes aside, the
            result for everyone changes, and the breakdown keeps its numbers from the close with a note saying so:
            comparing the two versions would otherwise show which group the changed vote came from.
          </p>
        </LabelledSection>
        <LabelledSection id="methods-honest" heading="How results are kept honest">
          <p>
            Each browser gets one vote on each poll. We look for signs of automated voting, such as bursts of votes from
            one network. Votes held or set aside after review count in no figure, raw or adjusted, and every result says
            how many there were. <Link to={HONEST_RESULTS.path}>{HONEST_RESULTS.title}</Link> has the details.
          </p>
        </LabelledSection>
        <LabelledSection id="methods-data" heading="Redo our numbers">
          <p>
            The targets, their sources, the mapping of our answers and every rule are open data at{' '}
            <a href={WEIGHTING_DATA_PATH}>{WEIGHTING_DATA_PATH}</a>; every past poll, with its adjusted line or the rule
            that withheld it, at <a href={OPEN_DATA_PATHS.json}>{OPEN_DATA_PATHS.json}</a> and{' '}
            <a href={OPEN_DATA_PATHS.csv}>{OPEN_DATA_PATHS.csv}</a>.
          </p>
        </LabelledSection>
      </div>
    </PageShell>
  );
}

function WhoTakesPart() {
  return (
    <LabelledSection id="methods-who" heading="Who takes part, and how">
      <ul>
        <li>
          <strong>Self-selected.</strong> Anyone who finds the site may vote: it is an opt-in poll, not a random sample
          of teachers. Most voters come from links shared by other teachers.
        </li>
        <li>
          <strong>Anonymous.</strong> No sign-up and no account. A voter may describe themselves with four broad answers
          (role, grade level, region, years teaching), each from a fixed list. Each vote keeps those answers as they
          were when it was cast.
        </li>
        <li>
          <strong>One vote per browser</strong> on each poll, from midnight until voting closes at{' '}
          {closeTimeLabel(siteClock)}.
        </li>
      </ul>
    </LabelledSection>
  );
}

function Adjustment({ data }: { data: WeightingData }) {
  const { rules, method } = data;
  // method.noMarginOfError is said in the page's own words, under "Why there is no margin of error".
  return (
    <>
      <LabelledSection id="methods-what" heading="What the adjusted line describes">
        <p>
          It estimates how {data.population} as a whole would have answered, had they voted in the same way as the
          teachers like them who did. It reads, for example: “{exampleLine(data)}”
        </p>
        <p>
          <strong>Who is in it.</strong> {data.scope}
        </p>
      </LabelledSection>

      <LabelledSection id="methods-variables" heading="The variables and their sources">
        <p>{data.about}</p>
        {WEIGHTING_MARGINS.map((name) => {
          const margin = data.margins[name];
          const headingId = `methods-margin-${name}`;
          return (
            <section key={name} aria-labelledby={headingId}>
              <h3 id={headingId}>{margin.label}</h3>
              <table className="methods__targets">
                <caption>
                  {margin.label}: share of {data.population}, school year {margin.source.schoolYear}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Category</th>
                    <th scope="col">Share</th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(margin.categories).map(([id, category]) => (
                    <tr key={id}>
                      <th scope="row">{category.label}</th>
                      <td>{category.percent}%</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p>
                Source: National Center for Education Statistics, {margin.source.survey}.{' '}
                <a href={margin.source.url}>{margin.source.table}</a>. {margin.source.covers}
              </p>
              <p>{margin.mapping}</p>
            </section>
          );
        })}
        {data.notReached && <p>{data.notReached}</p>}
        <p className="info-page__updated">Targets compiled {data.compiled}.</p>
      </LabelledSection>

      <LabelledSection id="methods-how" heading="How the adjustment is made">
        <ul>
          <li>{method.raking}</li>
          <li>{method.convergence}</li>
          <li>
            <strong>The cap.</strong> {method.cap} No single vote can then count for more than {rules.weightCap} average
            votes.
          </li>
          <li>{method.smallCategories}</li>
          <li>
            <strong>Years teaching.</strong> {method.yearsBands}
          </li>
        </ul>
      </LabelledSection>

      <LabelledSection id="methods-effective" heading="The effective sample">
        <p>
          Adjusting counts some votes more than others, and a result that leans on fewer votes is less steady. The
          effective sample says how many equally counted votes the adjusted result is worth: in the example above,{' '}
          {EXAMPLE.votesInScope} votes were in scope, and after adjusting they carry about as much information as{' '}
          {EXAMPLE.effectiveSample} would. {method.effectiveSample}
        </p>
      </LabelledSection>

      <LabelledSection id="methods-when" heading="When the line is shown">
        <p>{method.shownWhen}</p>
        <p>When it is not shown, the poll’s page says why, in one of these words:</p>
        <ul>
          {Object.entries(WITHHELD_REASON_TEXT).map(([reason, text]) => (
            <li key={reason}>{text}</li>
          ))}
        </ul>
      </LabelledSection>

      <LabelledSection id="methods-interval" heading="How sure the adjusted line is">
        <p>
          Each figure of a poll’s adjusted line comes with a range, as in “{EXAMPLE.percentages[0]}% Yes (
          {EXAMPLE_INTERVAL.low[0]}–{EXAMPLE_INTERVAL.high[0]}%)”: its {rules.interval.level * 100}% credibility
          interval. We work it out by drawing the poll’s votes again at random, {rules.interval.replicates} times, each
          time as many votes as there were, some twice and some not at all, and adjusting every draw from scratch. The
          range holds the middle {rules.interval.level * 100}% of the figures those draws give.
        </p>
        <ul>
          <li>
            <strong>What it covers:</strong> the spread that comes from which teachers happened to vote, and from
            weighting them (a line that leans hard on a few votes moves more).
          </li>
          <li>
            <strong>What it cannot cover:</strong> who chose not to vote. If the teachers who stayed away think
            differently from the teachers like them who voted, the true figure can lie outside the range, and nothing in
            the votes can show it.
          </li>
          <li>
            <strong>The design effect</strong> it gives each option (in the open data) says how much more the adjusted
            figure moves from draw to draw than a random sample of as many votes would.
          </li>
        </ul>
        <p>
          The draws are seeded, and each poll’s seed is published with its figures, so the same votes always give the
          same range. {method.interval}
        </p>
      </LabelledSection>

      <LabelledSection id="methods-heavy" heading="How much a line rests on few votes">
        <p>
          A vote weighted more than {rules.flagWeightAbove} times the average is flagged: each poll’s adjusted line
          carries, in the API and the open data (<code>heavyWeights</code>), how many of its votes are weighted that
          heavily and what share of the line they carry. A large share means a few teachers stand for many.
        </p>
        <p>
          A breakdown group’s adjusted line follows the same privacy rule as its raw figures: where the poll’s line less
          the group lines shown would leave fewer than {MIN_GROUP_SIZE} votes to work out by subtraction, the smallest
          group line is withheld too.
        </p>
      </LabelledSection>

      <LabelledSection id="methods-trackers" heading="Trackers: the same question over time">
        <p>
          Some questions are asked again, with the same answers. <Link to={trackersPath}>Each tracker</Link> shows every
          run: the result as voted and, where it is shown, the adjusted line with its range. When two runs’ ranges
          overlap, the tracker says the change is within them: it may be chance and weighting, not a real change. Runs
          are separate groups of volunteers, so a change can also come from who chose to vote.
        </p>
      </LabelledSection>

      <LabelledSection id="methods-moe" heading="Why there is no margin of error">
        <p>
          A margin of error (“plus or minus 3 points”) describes the chance errors of a random sample. An opt-in poll is
          not one, so the American Association for Public Opinion Research (AAPOR) holds that giving a margin of
          sampling error for it is misleading. We give none, on the raw result or the adjusted one. The range beside an
          adjusted figure is a credibility interval, which AAPOR allows for an opt-in poll when its method and
          assumptions are stated, as they are above; it is not a margin of error.
        </p>
      </LabelledSection>
    </>
  );
}

function Limits() {
  return (
    <LabelledSection id="methods-limits" heading="What adjusting cannot do">
      <ul>
        <li>
          <strong>It cannot correct for why people vote.</strong> Adjusting fixes the mix of grade levels, regions and
          years of experience. If teachers vote <em>because</em> of how they feel about the question (those who feel
          strongly turn up, those who don’t stay away), the adjusted line carries that bias as much as the raw one.
        </li>
        <li>
          <strong>Profiles are self-reported.</strong> Answers are optional and nobody checks them.
        </li>
        <li>
          <strong>Only some votes are in it.</strong> School leaders, support staff, Pre-K and college teachers, voters
          outside the US and anyone who left an answer out count in the raw result only.
        </li>
        <li>
          <strong>Other differences stay.</strong> Teachers who find a poll online may differ from others in ways none
          of the three variables capture: subject, school type, age, or how much they read about education.
        </li>
      </ul>
    </LabelledSection>
  );
}
