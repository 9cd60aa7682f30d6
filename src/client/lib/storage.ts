/**
 * The four things the browser remembers (spec section 3). Storage can be unavailable (private
 * modes, blocked by policy on school machines): then nothing is remembered, nothing breaks.
 */
type Key = 'voterEmail' | 'emailModalSeen' | 'emailSubscribed' | 'adminAuthenticated';

function read(key: Key): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: Key, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // remembered for this page only
  }
}

export const storage = {
  voterEmail: () => read('voterEmail'),
  setVoterEmail: (email: string) => write('voterEmail', email),
  emailModalSeen: () => read('emailModalSeen') === 'true',
  setEmailModalSeen: () => write('emailModalSeen', 'true'),
  emailSubscribed: () => read('emailSubscribed') === 'true',
  setEmailSubscribed: () => write('emailSubscribed', 'true'),
  adminAuthenticated: () => read('adminAuthenticated') === 'true',
  /** Only a hint for the UI: the server decides who is signed in. */
  setAdminAuthenticated: (signedIn: boolean) => write('adminAuthenticated', signedIn ? 'true' : null),
  /** "Reset Subscription Popup": the invitation shows again after the next vote. */
  resetSubscriptionPopup: () => {
    write('emailModalSeen', null);
    write('emailSubscribed', null);
    write('voterEmail', null);
  },
};
