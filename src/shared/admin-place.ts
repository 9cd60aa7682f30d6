/**
 * An admin panel place, read from its address: on its own, as every page's routing reads it
 * (client app/screens.ts) while the rest of admin-paths.ts goes only with the admin panel.
 */
export type AdminPlace =
  | { name: 'today' | 'polls' | 'suggestions' | 'topics' | 'staff' | 'audit' | 'account' }
  | { name: 'poll'; pollNumber: number; tab: 'poll' | 'integrity' };

const SIMPLE = ['polls', 'suggestions', 'topics', 'staff', 'audit', 'account'] as const;

/** The place at a path (without its query; one trailing slash allowed), or null when it is none. */
export function parseAdminPath(rawPath: string): AdminPlace | null {
  const path = rawPath.length > 1 ? rawPath.replace(/\/$/, '') : rawPath;
  if (path === '/admin') return { name: 'today' };
  const match = /^\/admin\/([a-z]+)(?:\/([1-9]\d{0,8})(\/integrity)?)?$/.exec(path);
  if (!match) return null;
  const [, name, number, integrity] = match;
  if (number !== undefined) {
    return name === 'polls'
      ? { name: 'poll', pollNumber: Number(number), tab: integrity ? 'integrity' : 'poll' }
      : null;
  }
  return (SIMPLE as readonly string[]).includes(name ?? '') ? { name: name as (typeof SIMPLE)[number] } : null;
}
