/**
 * The current time, for what a page shows of it (the countdown, "Yesterday", the year). Drawn on
 * the server at the time the server gives, and hydrated in the browser with that same time
 * (RenderTimeProvider), so the markup matches; the browser's own clock takes over right after.
 */
import { createContext, useContext, useSyncExternalStore } from 'react';

/** The time a server-drawn page was drawn at (ms); null once the browser draws on its own. */
const RenderTime = createContext<number | null>(null);
export const RenderTimeProvider = RenderTime.Provider;

const floorTo = (ms: number, step: number) => Math.floor(ms / step) * step;

const subscribers = new Map<number, (onChange: () => void) => () => void>();

/** Calls back at each whole `step` of the clock, so every reader moves on together. */
function ticks(step: number) {
  let subscribe = subscribers.get(step);
  if (!subscribe) {
    subscribe = (onChange) => {
      let timer: ReturnType<typeof setTimeout>;
      const schedule = () => {
        timer = setTimeout(
          () => {
            onChange();
            schedule();
          },
          step - (Date.now() % step) + 5,
        );
      };
      schedule();
      return () => clearTimeout(timer);
    };
    subscribers.set(step, subscribe);
  }
  return subscribe;
}

/** The current time to a whole `stepMs` (the countdown moves every minute, spec section 9). */
export function useNow(stepMs: number): Date {
  const renderTime = useContext(RenderTime);
  const now = useSyncExternalStore(
    ticks(stepMs),
    () => floorTo(Date.now(), stepMs),
    () => floorTo(renderTime ?? Date.now(), stepMs),
  );
  return new Date(now);
}
