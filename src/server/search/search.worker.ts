/**
 * Runs in search's worker thread (search-thread.ts): one search per task, on a read-only
 * connection of this thread's own, opened on the first task. better-sqlite3 answers
 * synchronously, so a search's queries here (ranking every match, marking a page) hold up this
 * thread only, never the one that answers /healthz, the API and the pages.
 */
import { openReadOnlySqlite, type Db } from '../db/connection.js';
import { findPastPolls, type SearchFilter } from './search.repository.js';

export interface SearchTask {
  /** The site's SQLite file. */
  file: string;
  filter: SearchFilter;
}

let open: { file: string; db: Db } | undefined;

export default async function search({ file, filter }: SearchTask) {
  if (open?.file !== file) {
    await open?.db.destroy();
    open = { file, db: openReadOnlySqlite(file) };
  }
  return findPastPolls(open.db, filter);
}
