/**
 * System / Light / Dark, in the footer. The server cannot know the stored choice, so hydration
 * renders System, like the server's markup, and React then renders the page's choice
 * (theme.js has already applied it before the first paint).
 */
import { useSyncExternalStore } from 'react';
import { ChoiceGroup } from '../forms/choice-group.js';
import { useHydrated } from '../../lib/use-hydrated.js';
import { applyTheme, currentTheme, subscribeTheme, type ThemeChoice } from '../../lib/theme.js';

const CHOICES = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
] as const;

const onServer = (): ThemeChoice => 'system';

export function ThemePicker() {
  const choice = useSyncExternalStore(subscribeTheme, currentTheme, onServer);
  const hydrated = useHydrated();
  return (
    <div className="site-footer__theme">
      <ChoiceGroup
        legend="Theme"
        choices={CHOICES}
        value={choice}
        onChange={applyTheme}
        look="segments"
        disabled={!hydrated}
      />
    </div>
  );
}
