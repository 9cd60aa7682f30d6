/** The poll form's topics (issue 39): a checkbox per topic on the owner's list. */
import { useId } from 'react';
import { useTopics } from '../../api/get-topics.js';
import { TOPICS_PER_POLL_MAX } from '../../../shared/limits.js';

export function TopicChoices({ chosen, onChange }: { chosen: string[]; onChange: (topics: string[]) => void }) {
  const { data: topics, isError } = useTopics();
  const id = useId();
  const toggle = (slug: string, on: boolean) =>
    onChange(on ? [...chosen.filter((s) => s !== slug), slug] : chosen.filter((s) => s !== slug));
  return (
    <fieldset className="field admin-form__topics" aria-describedby={`${id}-help`}>
      <legend className="field__label">Topics</legend>
      {isError ? (
        <p role="alert">Failed to load the topics. The poll keeps the ones it has.</p>
      ) : (
        <div className="admin-form__topic-list">
          {(topics ?? []).map((topic) => (
            <label key={topic.slug} className="admin-form__topic">
              <input
                type="checkbox"
                checked={chosen.includes(topic.slug)}
                disabled={!chosen.includes(topic.slug) && chosen.length >= TOPICS_PER_POLL_MAX}
                onChange={(e) => toggle(topic.slug, e.target.checked)}
              />{' '}
              {topic.name}
            </label>
          ))}
        </div>
      )}
      <p id={`${id}-help`} className="admin-form__help">
        One or more, at most {TOPICS_PER_POLL_MAX}: the poll is listed on each topic&apos;s page and found by its
        filter.
      </p>
    </fieldset>
  );
}
