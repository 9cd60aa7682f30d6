/**
 * A poll's topics as links to their pages (issue 39), which the server draws: plain links, so
 * the browser loads them as pages rather than the app looking for a screen.
 */
import type { TopicRef } from '../../../shared/api.js';
import { topicPath } from '../../../shared/topic-paths.js';
import './topic-links.css';

export function TopicLinks({ topics }: { topics: readonly TopicRef[] | undefined }) {
  if (!topics || topics.length === 0) return null;
  return (
    <ul className="topic-links" aria-label="Topics">
      {topics.map((topic) => (
        <li key={topic.slug}>
          <a className="pill" href={topicPath(topic.slug)}>
            {topic.name}
          </a>
        </li>
      ))}
    </ul>
  );
}
