/**
 * Getting into the panel: e-mail and password, or a passkey; an invite link's screen (a name
 * and a sign-in method); a one-time sign-in link; and, on a site upgraded from the shared
 * password, the one screen that password still opens: "Create the owner account".
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { AdminSession, InviteDetails } from '../../../shared/api.js';
import { STAFF_PASSWORD_MIN_LENGTH } from '../../../shared/limits.js';
import { ROLE_LABELS } from '../../../shared/staff-permissions.js';
import { acceptInviteWithPasskey, signInWithPasskey } from '../../api/admin/passkeys.js';
import { acceptInvite, createOwner, lookUpInvite, signInWithLink, useGetIn } from '../../api/admin/staff.js';
import { signIn } from '../../api/admin/sign-in.js';
import { refusalWords } from '../../components/admin/refusal.js';
import { SendForm } from '../../components/forms/send-form.js';
import { TextField } from '../../components/forms/text-field.js';
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
      description: refusalWords(error, 'The admin panel could not be reached. Please try again.'),
      variant: 'destructive',
    });
  };
}

const welcome = (session: AdminSession) =>
  toast({ title: 'Access granted', description: `Welcome, ${session.staff?.displayName ?? 'to the admin panel'}` });

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

  function submit() {
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
      <SendForm
        className="admin-login__form"
        onSend={submit}
        sending={password.isPending}
        sendingLabel="Checking…"
        button="Access Admin Panel"
      >
        <TextField
          label="Email"
          type="email"
          autoComplete="username webauthn"
          required
          value={email}
          onChange={setEmail}
        />
        <TextField
          label="Password"
          inputRef={field}
          type="password"
          autoComplete="current-password"
          required
          value={secret}
          onChange={setSecret}
        />
      </SendForm>
    </>
  );
}

const NEW_PASSWORD_HINT = `At least ${STAFF_PASSWORD_MIN_LENGTH} characters; a few unrelated words work well.`;

function NewPassword({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <TextField
      label="New password"
      hint={NEW_PASSWORD_HINT}
      type="password"
      autoComplete="new-password"
      minLength={STAFF_PASSWORD_MIN_LENGTH}
      required
      value={value}
      onChange={onChange}
    />
  );
}

/** The owner's details before the new password: [name, label, input type, autocomplete]. */
const OWNER_FIELDS = [
  ['adminPassword', 'Admin password', 'password', 'current-password'],
  ['email', 'Your email', 'email', 'username'],
  ['displayName', 'Your name', 'text', 'name'],
] as const;

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
      <SendForm
        className="admin-login__form"
        onSend={() => create.mutate(form, { onSuccess: welcome, onError: failed('The owner account was not created') })}
        sending={create.isPending}
        sendingLabel="Creating…"
        button="Create the owner account"
      >
        {OWNER_FIELDS.map(([name, label, type, autoComplete]) => (
          <TextField
            key={name}
            label={label}
            type={type}
            autoComplete={autoComplete}
            required
            value={form[name]}
            onChange={set(name)}
          />
        ))}
        <NewPassword value={form.password} onChange={set('password')} />
      </SendForm>
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
      <SendForm
        className="admin-login__form"
        onSend={() => {
          withPassword.mutate(
            { token, displayName: name, password },
            { onSuccess: accepted, onError: failed('The invite was not accepted') },
          );
        }}
        sending={withPassword.isPending}
        sendingLabel="Joining…"
        button="Join with this password"
      >
        <TextField label="Your name" autoComplete="name" required value={name} onChange={setName} />
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
      </SendForm>
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
