/**
 * Getting into the panel: e-mail and password, or a passkey; an invite link's screen (a name
 * and a sign-in method); a one-time sign-in link; and, on a site upgraded from the shared
 * password, the one screen that password still opens: "Create the owner account".
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { AdminSession, InviteDetails } from '../../../shared/api.js';
import { STAFF_PASSWORD_MIN_LENGTH } from '../../../shared/limits.js';
import { ROLE_LABELS } from '../../../shared/staff-permissions.js';
import { acceptInviteWithPasskey, signInWithPasskey } from '../../api/admin/passkeys.js';
import { acceptInvite, createOwner, lookUpInvite, signInWithLink, useGetIn } from '../../api/admin/staff.js';
import { signIn } from '../../api/admin/sign-in.js';
import { SubmitButton } from '../../components/forms/submit-button.js';
import { toast } from '../../components/ui/toast.js';
import { ApiRequestError } from '../../lib/api-client.js';
import { navigate, useLocation } from '../../lib/router.js';
import { readPageQuery } from '../../../shared/page-query.js';
import type { StaffLinkInAddress } from './staff-link.js';

/** A refusal's own words, or a line saying the panel could not be reached. */
function failed(title: string) {
  return (error: unknown) => {
    if (!(error instanceof ApiRequestError) && !(error instanceof Error && error.name === 'NotAllowedError')) {
      // Not an answer about what was typed: it stays, so pressing the button again retries.
      toast({ title: 'The admin panel could not be reached.', description: 'Please try again.', variant: 'failure' });
      return;
    }
    toast({
      title,
      description:
        error instanceof ApiRequestError
          ? error.message
          : error instanceof Error && error.name === 'NotAllowedError'
            ? 'The passkey request was cancelled.'
            : 'The admin panel could not be reached. Please try again.',
      variant: 'destructive',
    });
  };
}

const welcome = (session: AdminSession) =>
  toast({ title: 'Access granted', description: `Welcome, ${session.staff?.displayName ?? 'to the admin panel'}` });

function Field({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string, hintId: string | undefined) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children(id, hintId)}
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}

function PasskeyButton({ onClick, busy, children }: { onClick: () => void; busy: boolean; children: ReactNode }) {
  return (
    <button type="button" className="button button--secondary admin-login__passkey" onClick={onClick} disabled={busy}>
      {busy ? 'Waiting for your passkey…' : children}
    </button>
  );
}

/**
 * E-mail and password, or a passkey. Also the re-confirmation before voter e-mails and what needs
 * a recent sign-in, with the signed-in person's `email` filled in.
 */
export function SignInForm({
  intro,
  email: known = '',
  onDone,
}: {
  intro?: string;
  email?: string;
  onDone?: () => void;
}) {
  const password = useGetIn(signIn);
  const passkey = useGetIn(signInWithPasskey);
  const [email, setEmail] = useState(known);
  const [secret, setSecret] = useState('');
  const field = useRef<HTMLInputElement>(null);

  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    password.mutate(
      { email, password: secret },
      {
        onSuccess: (session) => {
          welcome(session);
          onDone?.();
        },
        onError: (error) => {
          failed('Access denied')(error);
          if (error instanceof ApiRequestError && error.code === 'unauthorized') setSecret('');
          field.current?.focus();
        },
      },
    );
  }

  return (
    <>
      {intro && <p>{intro}</p>}
      <PasskeyButton
        busy={passkey.isPending}
        onClick={() =>
          passkey.mutate(undefined, {
            onSuccess: (session) => {
              welcome(session);
              onDone?.();
            },
            onError: failed('Passkey not accepted'),
          })
        }
      >
        Sign in with a passkey
      </PasskeyButton>
      <p className="admin-login__or">or with your e-mail and password</p>
      <form onSubmit={submit} className="admin-login__form">
        <Field label="Email">
          {(id) => (
            <input
              id={id}
              className="input"
              type="email"
              autoComplete="username webauthn"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
            />
          )}
        </Field>
        <Field label="Password">
          {(id) => (
            <input
              ref={field}
              id={id}
              className="input"
              type="password"
              autoComplete="current-password"
              required
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
          )}
        </Field>
        <SubmitButton sending={password.isPending} sendingLabel="Checking…">
          Access Admin Panel
        </SubmitButton>
      </form>
    </>
  );
}

const NEW_PASSWORD_HINT = `At least ${STAFF_PASSWORD_MIN_LENGTH} characters; a few unrelated words work well.`;

function NewPassword({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <Field label="New password" hint={NEW_PASSWORD_HINT}>
      {(id, hintId) => (
        <input
          id={id}
          className="input"
          type="password"
          autoComplete="new-password"
          minLength={STAFF_PASSWORD_MIN_LENGTH}
          aria-describedby={hintId}
          required
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** The one screen the old shared password opens, until the owner exists. */
function OwnerSetup() {
  const create = useGetIn(createOwner);
  const [form, setForm] = useState({ adminPassword: '', email: '', displayName: '', password: '' });
  const set = (name: keyof typeof form) => (value: string) => setForm((current) => ({ ...current, [name]: value }));
  return (
    <section className="card admin-login" aria-labelledby="setup-heading">
      <h1 id="setup-heading">Create the owner account</h1>
      <p>
        Staff now sign in with their own accounts. Enter the site&apos;s admin password once to create the owner&apos;s
        account; after that it signs nobody in.
      </p>
      <form
        className="admin-login__form"
        onSubmit={(event) => {
          event.preventDefault();
          create.mutate(form, { onSuccess: welcome, onError: failed('The owner account was not created') });
        }}
      >
        <Field label="Admin password">
          {(id) => (
            <input
              id={id}
              className="input"
              type="password"
              autoComplete="current-password"
              required
              value={form.adminPassword}
              onChange={(e) => set('adminPassword')(e.target.value)}
            />
          )}
        </Field>
        <Field label="Your email">
          {(id) => (
            <input
              id={id}
              className="input"
              type="email"
              autoComplete="username"
              required
              value={form.email}
              onChange={(e) => set('email')(e.target.value)}
            />
          )}
        </Field>
        <Field label="Your name">
          {(id) => (
            <input
              id={id}
              className="input"
              autoComplete="name"
              required
              value={form.displayName}
              onChange={(e) => set('displayName')(e.target.value)}
            />
          )}
        </Field>
        <NewPassword value={form.password} onChange={set('password')} />
        <SubmitButton sending={create.isPending} sendingLabel="Creating…">
          Create the owner account
        </SubmitButton>
      </form>
    </section>
  );
}

/** An invite link: a name, then a passkey (first) or a password. */
function InviteScreen({ token, done }: { token: string; done: () => void }) {
  const [invite, setInvite] = useState<InviteDetails | 'gone' | null>(null);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const withPassword = useGetIn(acceptInvite);
  const withPasskey = useGetIn(({ displayName }: { displayName: string }) =>
    acceptInviteWithPasskey(token, displayName),
  );
  useEffect(() => {
    lookUpInvite(token).then(setInvite, () => setInvite('gone'));
  }, [token]);
  const accepted = (session: AdminSession) => {
    welcome(session);
    done();
  };
  if (invite === null) return <p role="status">Checking your invite…</p>;
  if (invite === 'gone')
    return (
      <p role="alert" className="card">
        This invite has expired or was already used. Ask the site owner for a new one.
      </p>
    );
  return (
    <section className="card admin-login" aria-labelledby="invite-heading">
      <h1 id="invite-heading">Join the staff</h1>
      <p>
        You are invited as <strong>{ROLE_LABELS[invite.role]}</strong> ({invite.email}). Choose how you will sign in.
      </p>
      <form
        className="admin-login__form"
        onSubmit={(event) => {
          event.preventDefault();
          withPassword.mutate(
            { token, displayName: name, password },
            { onSuccess: accepted, onError: failed('The invite was not accepted') },
          );
        }}
      >
        <Field label="Your name">
          {(id) => (
            <input
              id={id}
              className="input"
              autoComplete="name"
              required
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <PasskeyButton
          busy={withPasskey.isPending}
          onClick={() => {
            if (!name.trim()) {
              toast({ title: 'Please enter your name first.', variant: 'destructive' });
              return;
            }
            withPasskey.mutate(
              { displayName: name },
              { onSuccess: accepted, onError: failed('The passkey was not made') },
            );
          }}
        >
          Create a passkey and join
        </PasskeyButton>
        <p className="admin-login__or">or choose a password</p>
        <NewPassword value={password} onChange={setPassword} />
        <SubmitButton sending={withPassword.isPending} sendingLabel="Joining…">
          Join with this password
        </SubmitButton>
      </form>
    </section>
  );
}

/**
 * Links from before tokens moved to the fragment (`/admin?invite=…`): their token has been in a
 * request's address, where logs keep it, so they no longer work (0016-staff-hardening ended them).
 */
const OLD_LINKS = {
  invite: 'This invite link is in an old form that no longer works. Ask the site owner for a new invite.',
  'sign-in': 'This sign-in link is in an old form that no longer works. Run `npm run staff -- sign-in-link` again.',
} as const;

/** The old link in the address, if any, said once; then the address drops it. */
function useOldLink(): keyof typeof OLD_LINKS | null {
  const { pathname, search } = useLocation();
  const query = readPageQuery(search);
  const [old] = useState<keyof typeof OLD_LINKS | null>(() =>
    query.invite ? 'invite' : query.signInLink ? 'sign-in' : null,
  );
  useEffect(() => {
    if (old) navigate(pathname, { replace: true });
    // Once, as the screen opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return old;
}

/** `link`: an invite or one-time sign-in link the page found in its address (staff-link.ts). */
export function LoginScreen({
  needsOwner = false,
  link = null,
  linkUsed = () => {},
}: {
  needsOwner?: boolean;
  link?: StaffLinkInAddress | null;
  linkUsed?: () => void;
}) {
  const old = useOldLink();
  const signInLink = link?.kind === 'sign-in' ? link.token : null;
  const viaLink = useGetIn(signInWithLink);
  const { mutate } = viaLink;
  useEffect(() => {
    if (!signInLink) return;
    mutate(signInLink, { onSuccess: welcome, onError: failed('The sign-in link did not work'), onSettled: linkUsed });
    // Once per link.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signInLink]);

  if (link?.kind === 'invite') return <InviteScreen token={link.token} done={linkUsed} />;
  if (signInLink) return <p role="status">Signing you in…</p>;
  if (needsOwner) return <OwnerSetup />;
  return (
    <section className="card admin-login" aria-labelledby="login-heading">
      <h1 id="login-heading">Admin Panel</h1>
      {old && (
        <p role="alert" className="admin-login__old-link">
          {OLD_LINKS[old]}
        </p>
      )}
      <SignInForm intro="Staff only. Sign in to manage the site." />
    </section>
  );
}
