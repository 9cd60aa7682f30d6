/**
 * The visitor's theme choice, kept on this browser. public/theme.js applies the stored choice
 * to <html data-theme> before the first paint; this module reads and changes it once the app
 * runs. System (nothing stored, no data-theme) follows `prefers-color-scheme`.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

/** The localStorage key; public/theme.js reads the same one. */
export const THEME_STORAGE_KEY = 'theme';

const asChoice = (value: string | null): ThemeChoice => (value === 'light' || value === 'dark' ? value : 'system');

/** The choice the page shows now: the attribute is the truth, even where storage is refused. */
export function currentTheme(): ThemeChoice {
  return asChoice(document.documentElement.getAttribute('data-theme'));
}

function setAttribute(choice: ThemeChoice) {
  const root = document.documentElement;
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
}

const listeners = new Set<() => void>();

/** For useSyncExternalStore: told when the choice changes here or in another tab. */
export function subscribeTheme(listener: () => void): () => void {
  const fromOtherTab = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    setAttribute(asChoice(event.newValue));
    listener();
  };
  listeners.add(listener);
  window.addEventListener('storage', fromOtherTab);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', fromOtherTab);
  };
}

/** Remembers the choice and applies it to the page at once. */
export function applyTheme(choice: ThemeChoice) {
  setAttribute(choice);
  try {
    if (choice === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage refused: the choice holds for this page only.
  }
  for (const listener of listeners) listener();
}
