/** Staff (owner): people and their roles, enabling and disabling, invites. */
import { useState } from 'react';
import type { StaffMember } from '../../../shared/api.js';
import { ROLE_LABELS, STAFF_ROLES, type StaffRole } from '../../../shared/staff-permissions.js';
import { useChangeStaff, useInvite, useInvites, useStaff, useWithdrawInvite } from '../../api/admin/staff.js';
import { SelectField } from '../../components/forms/select-field.js';
import { SendForm } from '../../components/forms/send-form.js';
import { TextField } from '../../components/forms/text-field.js';
import { toast } from '../../components/ui/toast.js';
import { ApiRequestError } from '../../lib/api-client.js';
import { copyText } from '../../lib/copy-text.js';
import { useReconfirm } from '../../components/admin/reconfirm.js';
import { formatMoment } from './staff-format.js';

const refused = (error: unknown) =>
  toast({
    title: 'Not saved',
    description: error instanceof ApiRequestError ? error.message : 'The admin panel could not be reached.',
    variant: 'destructive',
  });

const ROLE_OPTIONS = STAFF_ROLES.map((role) => [role, ROLE_LABELS[role]] as const);

function Person({ person, me }: { person: StaffMember; me: number }) {
  const change = useChangeStaff();
  const saved = (r: { message: string }) => toast({ title: r.message });
  return (
    <li className="admin-item admin-staff__person">
      <div>
        <strong>{person.displayName}</strong>
        {person.id === me && ' (you)'} <span className="admin-muted">{person.email}</span>
        <div className="admin-muted">
          {person.disabled ? 'Disabled · ' : ''}
          {person.passkeys === 1 ? '1 passkey' : `${person.passkeys} passkeys`}
          {person.hasPassword ? ' · password' : ''}
        </div>
      </div>
      <div className="admin-item__actions">
        <SelectField
          label={`Role of ${person.displayName}`}
          labelHidden
          className="admin-staff__role"
          options={ROLE_OPTIONS}
          value={person.role}
          disabled={change.isPending}
          onChange={(role) => change.mutate({ id: person.id, role }, { onSuccess: saved, onError: refused })}
        />
        <button
          type="button"
          className="button button--secondary"
          disabled={change.isPending}
          onClick={() =>
            change.mutate({ id: person.id, disabled: !person.disabled }, { onSuccess: saved, onError: refused })
          }
        >
          {person.disabled ? 'Enable' : 'Disable'}
        </button>
      </div>
    </li>
  );
}

function InviteForm() {
  const reconfirmed = useReconfirm();
  const invite = useInvite();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('editor');
  const [link, setLink] = useState<string | null>(null);
  return (
    <SendForm
      className="admin-staff__invite"
      onSend={() => {
        const inviting = () =>
          invite.mutate(
            { email, role },
            {
              onSuccess: (made) => {
                setLink(made.link);
                setEmail('');
                toast({
                  title: 'Invite sent',
                  description: 'An e-mail with a link is on its way. It works once, for 48 hours.',
                });
              },
              onError: (error) => {
                if (!reconfirmed(error, inviting)) refused(error);
              },
            },
          );
        inviting();
      }}
      sending={invite.isPending}
      sendingLabel="Inviting…"
      button="Invite"
      after={
        link && (
          <p className="admin-staff__link">
            If the e-mail does not arrive, this link works too (shown once): <code>{link}</code>{' '}
            <button type="button" className="button button--quiet" onClick={() => void copyText(link)}>
              Copy
            </button>
          </p>
        )
      }
    >
      <TextField label="Invite by email" type="email" required value={email} onChange={setEmail} />
      <SelectField label="Role" options={ROLE_OPTIONS} value={role} onChange={setRole} />
    </SendForm>
  );
}

export function StaffSection({ me }: { me: number }) {
  const staff = useStaff(true);
  const invites = useInvites();
  const withdraw = useWithdrawInvite();
  return (
    <section className="admin-section card" aria-labelledby="staff-heading">
      <h2 id="staff-heading">
        Staff <span className="admin-count">{staff.data?.length ?? 0}</span>
      </h2>
      <p className="admin-muted">
        Owners do everything; editors run polls and the integrity review; moderators review suggestions.
      </p>
      {staff.isError ? (
        <p role="alert">Failed to load the staff.</p>
      ) : (
        <ul className="admin-list">
          {staff.data?.map((person) => (
            <Person key={person.id} person={person} me={me} />
          ))}
        </ul>
      )}
      <InviteForm />
      {invites.data && invites.data.length > 0 && (
        <>
          <h3>Invites waiting</h3>
          <ul className="admin-list admin-staff-invites">
            {invites.data.map((invite) => (
              <li key={invite.id} className="admin-item">
                <span>
                  {invite.email} as {ROLE_LABELS[invite.role]}, until {formatMoment(invite.expiresAt)}
                </span>
                <button
                  type="button"
                  className="button button--quiet"
                  onClick={() => withdraw.mutate(invite.id, { onError: refused })}
                >
                  Withdraw
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
