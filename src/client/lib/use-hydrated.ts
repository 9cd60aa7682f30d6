/**
 * False in the server's markup and while React takes the page over, true from then on. A
 * control that only a script can work (share, copy, a theme switch) is drawn disabled until
 * then: with scripts off it stays plainly inert, and a tap that comes before the script is
 * not silently lost, since the control could not take it.
 */
import { useSyncExternalStore, type ReactNode } from 'react';

const subscribe = () => () => {};
const inBrowser = () => true;
const onServer = () => false;

export function useHydrated(): boolean {
  return useSyncExternalStore(subscribe, inBrowser, onServer);
}

/**
 * Draws `children(hydrated)` as a component of its own. React draws a component again, at once
 * and in one task, when its useHydrated turns true after hydration: this keeps that to the
 * controls themselves instead of the whole results or breakdown around them.
 */
export function OnceHydrated({ children }: { children: (hydrated: boolean) => ReactNode }): ReactNode {
  return children(useHydrated());
}
