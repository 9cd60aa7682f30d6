/** The topic list (owner, issue 39): add a topic, rename one (its address stays), delete one. */
import { useState } from 'react';
import type { Topic } from '../../../shared/api.js';
import { TOPIC_NAME_MAX_LENGTH } from '../../../shared/limits.js';
import { topicPath } from '../../../shared/topic-paths.js';
import { useAddTopic, useDeleteTopic, useRenameTopic } from '../../api/admin/topics.js';
import { useTopics } from '../../api/get-topics.js';
import { useStaffAction } from '../../components/admin/staff-action.js';
import { SubmitButton } from '../../components/forms/submit-button.js';
import { TextField } from '../../components/forms/text-field.js';
import { useConfirm } from '../../components/ui/confirm.js';
import { LabelledSection } from '../../components/layout/labelled-section.js';

function TopicRow({
  topic,
  onRename,
  onDelete,
}: {
  topic: Topic;
  onRename: (name: string) => void;
  onDelete: () => void;
}) {
  const [name, setName] = useState(topic.name);
  return (
    <li className="card admin-item admin-topic">
      <form
        className="admin-topic__form"
        onSubmit={(e) => {
          e.preventDefault();
          onRename(name);
        }}
      >
        <TextField label={`Name of ${topic.name}`} maxLength={TOPIC_NAME_MAX_LENGTH} value={name} onChange={setName} />
        <p className="admin-muted">
          <a href={topicPath(topic.slug)}>{topicPath(topic.slug)}</a> ·{' '}
          {topic.pastPolls === 1 ? '1 past poll' : `${topic.pastPolls} past polls`}
        </p>
        <div className="admin-item__actions">
          <button type="submit" className="button button--secondary" disabled={name.trim() === topic.name}>
            Rename
          </button>
          <button type="button" className="button button--danger" onClick={onDelete}>
            Delete
          </button>
        </div>
      </form>
    </li>
  );
}

export function TopicsSection() {
  const topics = useTopics();
  const [name, setName] = useState('');
  const { confirm, dialog } = useConfirm();
  const addMutation = useAddTopic();
  const add = useStaffAction(addMutation, {
    request: (topicName: string) => topicName,
    confirmed: () => setName(''),
    failure: () => ({ title: 'Failed to add the topic' }),
  });
  const rename = useStaffAction(useRenameTopic(), {
    request: (change: { id: number; name: string }) => change,
    failure: () => ({ title: 'Failed to rename the topic' }),
  });
  const remove = useStaffAction(
    useDeleteTopic(),
    {
      request: (topic: Topic) => topic.id,
      ask: (topic) => ({
        title: `Delete "${topic.name}"?`,
        description: `Its ${topic.pastPolls === 1 ? 'past poll loses' : 'polls lose'} the topic, and its page and feed go. This cannot be undone.`,
        confirmLabel: 'Delete',
      }),
      failure: () => ({ title: 'Failed to delete the topic' }),
    },
    confirm,
  );
  return (
    <LabelledSection id="admin-topics-heading" heading="Topics">
      <p className="admin-muted">
        Staff give each poll one or more of these; each has its own page, feed and open data.
      </p>
      <form
        className="card admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          void add(name);
        }}
      >
        <TextField label="New topic" maxLength={TOPIC_NAME_MAX_LENGTH} value={name} onChange={setName} />
        <div className="admin-form__actions">
          <SubmitButton sending={addMutation.isPending} sendingLabel="Adding…">
            Add Topic
          </SubmitButton>
        </div>
      </form>
      {topics.isError ? (
        <p role="alert">Failed to load the topics. Please try again.</p>
      ) : !topics.data ? (
        <p role="status">Loading topics…</p>
      ) : (
        <ul className="admin-list">
          {topics.data.map((topic) => (
            <TopicRow
              key={`${topic.id}:${topic.name}`}
              topic={topic}
              onRename={(newName) => void rename({ id: topic.id, name: newName })}
              onDelete={() => void remove(topic)}
            />
          ))}
        </ul>
      )}
      {dialog}
    </LabelledSection>
  );
}
