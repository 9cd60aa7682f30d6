/** The audit log (owner): who did what, filtered by person, action and date; its check; its CSV. */
import { useState } from 'react';
import { auditCsvUrl, useAudit, useAuditCheck, useStaff, type AuditFilter } from '../../api/admin/staff.js';
import { SelectField } from '../../components/forms/select-field.js';
import { TextField } from '../../components/forms/text-field.js';
import { TableFrame } from '../../components/ui/table-frame.js';
import { formatMoment } from './staff-format.js';

const ACTIONS = [
  'sign-in',
  'sign-out',
  'poll.create',
  'poll.edit',
  'poll.delete',
  'poll.activate',
  'poll.switch',
  'suggestion.approve',
  'suggestion.reject',
  'suggestion.delete',
  'topic.create',
  'topic.rename',
  'topic.delete',
  'staff.create',
  'staff.role',
  'staff.disable',
  'staff.enable',
  'invite.create',
  'invite.accept',
  'invite.withdraw',
  'session.end',
  'passkey.add',
  'passkey.remove',
  'password.change',
  'votes.emails',
  'export.votes',
  'export.votes-emails',
  'export.audit',
  'integrity.discount',
  'integrity.restore',
  'integrity.release',
  'integrity.challenge',
];

const ACTION_OPTIONS = [['', 'Every action'] as const, ...ACTIONS.map((action) => [action, action] as const)];

function Check() {
  const check = useAuditCheck();
  if (!check.data) return null;
  const { ok, rows, problem, keyed, unkeyedRows, head } = check.data;
  return (
    <>
      {ok ? (
        <p className="admin-audit__ok" role="status">
          ✓ The log is intact: {rows} rows, each chained to the one before.
          {head && (
            <>
              {' '}
              Head: row {head.id}, hash <code>{head.hash.slice(0, 16)}…</code>
            </>
          )}
        </p>
      ) : (
        <p className="admin-audit__broken" role="alert">
          The log has been changed outside the site. {problem}
        </p>
      )}
      {!keyed ? (
        <p className="admin-audit__broken" role="alert">
          The chain is unkeyed: AUDIT_CHAIN_KEY is not set, so anyone with the database could rewrite the log unseen.
        </p>
      ) : (
        unkeyedRows > 0 && (
          <p className="admin-audit__note">
            The chain is keyed; its first {unkeyedRows} rows were written before AUDIT_CHAIN_KEY was set.
          </p>
        )
      )}
    </>
  );
}

export function AuditSection() {
  const [filter, setFilter] = useState<AuditFilter>({ actor: '', action: '', from: '', to: '' });
  const staff = useStaff(true);
  const audit = useAudit(filter);
  const set = (name: keyof AuditFilter) => (value: string) => setFilter((current) => ({ ...current, [name]: value }));
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <section className="admin-section card admin-audit" aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit log</h2>
      <Check />
      <div className="admin-audit__filters">
        <SelectField
          label="Person"
          options={[['', 'Everyone'], ...(staff.data ?? []).map((p) => [String(p.id), p.displayName] as const)]}
          value={filter.actor}
          onChange={set('actor')}
        />
        <SelectField label="Action" options={ACTION_OPTIONS} value={filter.action} onChange={set('action')} />
        <TextField label="From" type="date" value={filter.from} onChange={set('from')} />
        <TextField label="To" type="date" value={filter.to} onChange={set('to')} />
      </div>
      {audit.isError ? (
        <p role="alert">Failed to load the audit log.</p>
      ) : entries.length === 0 ? (
        <p className="admin-empty">{audit.isPending ? 'Loading…' : 'Nothing recorded for this filter.'}</p>
      ) : (
        <TableFrame label="Audit log entries" columns={['When', 'Who', 'Action', 'On', 'Summary']}>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>{formatMoment(entry.at)}</td>
              <td>
                {entry.actor.name} <span className="admin-muted">({entry.actor.role})</span>
              </td>
              <td>
                <code>{entry.action}</code>
              </td>
              <td>{entry.target}</td>
              <td>{entry.summary}</td>
            </tr>
          ))}
        </TableFrame>
      )}
      <div className="admin-item__actions">
        {audit.hasNextPage && (
          <button
            type="button"
            className="button button--quiet"
            disabled={audit.isFetchingNextPage}
            onClick={() => void audit.fetchNextPage()}
          >
            {audit.isFetchingNextPage ? 'Loading…' : 'Show older'}
          </button>
        )}
        <a className="button button--secondary" href={auditCsvUrl(filter)} download>
          Download CSV
        </a>
      </div>
    </section>
  );
}
