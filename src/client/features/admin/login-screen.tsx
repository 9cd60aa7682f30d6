import { useId, useRef, useState } from 'react';
import { useSignIn } from '../../api/admin/sign-in.js';
import { SubmitButton } from '../../components/forms/submit-button.js';
import { toast } from '../../components/ui/toast.js';
import { ApiRequestError } from '../../lib/api-client.js';

export function LoginScreen() {
  const signIn = useSignIn();
  const [password, setPassword] = useState('');
  const field = useRef<HTMLInputElement>(null);
  const id = useId();

  function submit(event: { preventDefault: () => void }) {
    event.preventDefault();
    if (!password) {
      field.current?.focus();
      return;
    }
    signIn.mutate(password, {
      onSuccess: () => toast({ title: 'Access granted', description: 'Welcome to the admin panel' }),
      onError: (error) => {
        if (!(error instanceof ApiRequestError)) {
          // Not an answer about the password: keep it, so pressing the button again retries.
          toast({
            title: 'The admin panel could not be reached.',
            description: 'Please try again.',
            variant: 'failure',
          });
          return;
        }
        const wrongPassword = error.code === 'unauthorized';
        toast({
          title: 'Access denied',
          description: wrongPassword ? 'Incorrect password' : error.message,
          variant: 'destructive',
        });
        if (wrongPassword) setPassword('');
        field.current?.focus();
      },
    });
  }

  return (
    <section className="card admin-login" aria-labelledby="login-heading">
      <h1 id="login-heading">Admin Panel</h1>
      <p>Staff only. Enter the admin password to manage polls and suggestions.</p>
      <form onSubmit={submit} className="admin-login__form">
        <div className="field">
          <label className="field__label" htmlFor={id}>
            Password
          </label>
          <input
            ref={field}
            id={id}
            className="input"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <SubmitButton sending={signIn.isPending} sendingLabel="Checking…">
          Access Admin Panel
        </SubmitButton>
      </form>
    </section>
  );
}
