/** Your sign-in: your passkeys (named, removable), your password, and sessions (the owner: everyone's). */
import { useState } from 'react';
import { STAFF_PASSWORD_MIN_LENGTH } from '../../../shared/limits.js';
import { addPasskey } from '../../api/admin/passkeys.js';
import { useChangePassword, useEndSession, usePasskeys, useRemovePasskey, useSessions } from '../../api/admin/staff.js';
import { SendForm } from '../../components/forms/send-form.js';
import { TextField } from '../../components/forms/text-field.js';
import { toast } from '../../components/ui/toast.js';
import { refusalWords } from '../../components/admin/refusal.js';
import { useReconfirm } from '../../components/admin/reconfirm.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { formatMoment } from './staff-format.js';

const refused = (title: string) => (error: unknown) =>
  toast({
    title,
    description: refusalWords(error, 'The admin panel could not be reached.'),
    variant: 'destructive',
  });

function Passkeys() {
  const reconfirmed = useReconfirm();
  const passkeys = usePasskeys();
  const remove = useRemovePasskey();
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: addPasskey,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'staff'] }),
  });
  const [name, setName] = useState('');
  return (
    <div className="admin-account__part">
      <h3>Passkeys</h3>
      {passkeys.data && passkeys.data.length === 0 && <p className="admin-muted">No passkey yet.</p>}
      <ul className="admin-list">
        {passkeys.data?.map((passkey) => (
          <li key={passkey.id} className="admin-item">
            <span>
              <strong>{passkey.name}</strong>{' '}
              <span className="admin-muted">
                added {formatMoment(passkey.createdAt)}
                {passkey.lastUsedAt ? `, last used ${formatMoment(passkey.lastUsedAt)}` : ''}
              </span>
            </span>
            <button
              type="button"
              className="button button--quiet"
              onClick={() =>
                remove.mutate(passkey.id, {
                  onSuccess: () => toast({ title: 'Passkey removed' }),
                  onError: refused('Not removed'),
                })
              }
            >
              Remove {passkey.name}
            </button>
          </li>
        ))}
      </ul>
      <SendForm
        className="admin-account__add"
        onSend={() => {
          const adding = () =>
            add.mutate(name || 'Passkey', {
              onSuccess: () => {
                setName('');
                toast({ title: 'Passkey added' });
              },
              onError: (error) => {
                if (!reconfirmed(error, adding)) refused('The passkey was not added')(error);
              },
            });
          adding();
        }}
        sending={add.isPending}
        sendingLabel="Waiting for your passkey…"
        button="Add a passkey"
      >
        <TextField
          label="Name for a new passkey"
          placeholder="Work laptop"
          maxLength={60}
          value={name}
          onChange={setName}
        />
      </SendForm>
    </div>
  );
}

function Password() {
  const reconfirmed = useReconfirm();
  const change = useChangePassword();
  const [password, setPassword] = useState('');
  const save = () =>
    change.mutate(password, {
      onSuccess: (saved) => {
        setPassword('');
        toast({ title: 'Password saved', description: saved.message });
      },
      onError: (error) => {
        if (!reconfirmed(error, save)) refused('Password not saved')(error);
      },
    });
  return (
    <SendForm
      className="admin-account__part"
      onSend={save}
      sending={change.isPending}
      sendingLabel="Saving…"
      button="Save password"
    >
      <h3>Password</h3>
      <TextField
        label={`New password (at least ${STAFF_PASSWORD_MIN_LENGTH} characters)`}
        type="password"
        autoComplete="new-password"
        minLength={STAFF_PASSWORD_MIN_LENGTH}
        required
        value={password}
        onChange={setPassword}
      />
    </SendForm>
  );
}

function Sessions({ everyone }: { everyone: boolean }) {
  const sessions = useSessions(everyone);
  const end = useEndSession();
  return (
    <div className="admin-account__part">
      <h3>{everyone ? 'Sessions (everyone’s)' : 'Your sessions'}</h3>
      <ul className="admin-list">
        {sessions.data?.map((session) => (
          <li key={session.id} className="admin-item">
            <span>
              <strong>{session.browser}</strong>
              {session.current ? ' (this browser)' : ''}
              {everyone ? ` · ${session.staffName}` : ''}{' '}
              <span className="admin-muted">last seen {formatMoment(session.lastSeenAt)}</span>
            </span>
            {!session.current && (
              <button
                type="button"
                className="button button--quiet"
                onClick={() =>
                  end.mutate(session.id, {
                    onSuccess: () => toast({ title: 'Session ended' }),
                    onError: refused('Not ended'),
                  })
                }
              >
                End session
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function AccountSection({ name, owner }: { name: string; owner: boolean }) {
  return (
    <section className="admin-section card admin-account" aria-labelledby="account-heading">
      <h2 id="account-heading">Your sign-in ({name})</h2>
      <Passkeys />
      <Password />
      <Sessions everyone={owner} />
    </section>
  );
}
