/**
 * What the browser remembers: the spec's four items (section 3), and whether the visitor said
 * "Not now" to describing themselves. Storage can be unavailable (private modes, blocked by
 * policy on school machines): then nothing is remembered, nothing breaks.
 */
type Key = 'voterEmail' | 'emailModalSeen' | 'emailSubscribed' | 'adminAuthenticated' | 'profileInvitationDismissed';

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
  /** "Not now" to the "about you" invitation: it stays hidden on this browser. */
  profileInvitationDismissed: () => read('profileInvitationDismissed') === 'true',
  setProfileInvitationDismissed: () => write('profileInvitationDismissed', 'true'),
  /**
   * "Forget this browser": what it remembers about the visitor (their e-mail, the invitations
   * seen or declined) goes with the server's copy. Staff's sign-in hint is not the visitor's.
   */
  forgetVisitor: () => {
    for (const key of ['voterEmail', 'emailModalSeen', 'emailSubscribed', 'profileInvitationDismissed'] as const)
      write(key, null);
  },
  /** "Reset Subscription Popup": the invitation shows again after the next vote. */
  resetSubscriptionPopup: () => {
    write('emailModalSeen', null);
    write('emailSubscribed', null);
    write('voterEmail', null);
  },
};
