import type { Migration } from 'kysely';
import * as initial from './0001-initial.js';
import * as admin from './0002-admin.js';
import * as mail from './0003-mail.js';
import * as optIn from './0004-opt-in.js';
import * as profiles from './0006-profiles.js';
import * as voteBatches from './0007-vote-batches.js';
import * as voterKey from './0008-voter-key.js';
import * as emailLinks from './0009-email-links.js';
import * as voteIntegrity from './0010-vote-integrity.js';
import * as reissuedVoterIds from './0011-reissued-voter-ids.js';
import * as proofOfWork from './0012-proof-of-work.js';
import * as weightedResults from './0013-weighted-results.js';
import * as staff from './0014-staff.js';
import * as pushReminders from './0015-push-reminders.js';
import * as staffHardening from './0016-staff-hardening.js';
import * as dailyAddressKey from './0017-daily-address-key.js';
import * as publishedBreakdowns from './0019-published-breakdowns.js';
import * as series from './0020-series.js';
import * as topics from './0022-topics.js';
import * as search from './0023-search.js';
import * as pollNotes from './0024-poll-notes.js';
import * as weeklyDigest from './0025-weekly-digest.js';
import * as integrityAlerts from './0026-integrity-alerts.js';
import * as cheaperVoteRow from './0027-cheaper-vote-row.js';
import * as setAsideIndex from './0028-set-aside-index.js';

/** Every migration, in order. Add new ones at the end; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-admin': admin,
  '0003-mail': mail,
  '0004-opt-in': optIn,
  '0006-profiles': profiles,
  '0007-vote-batches': voteBatches,
  '0008-voter-key': voterKey,
  '0009-email-links': emailLinks,
  '0010-vote-integrity': voteIntegrity,
  '0011-reissued-voter-ids': reissuedVoterIds,
  '0012-proof-of-work': proofOfWork,
  '0013-weighted-results': weightedResults,
  '0014-staff': staff,
  '0015-push-reminders': pushReminders,
  '0016-staff-hardening': staffHardening,
  '0017-daily-address-key': dailyAddressKey,
  '0019-published-breakdowns': publishedBreakdowns,
  '0020-series': series,
  '0022-topics': topics,
  '0023-search': search,
  '0024-poll-notes': pollNotes,
  '0025-weekly-digest': weeklyDigest,
  '0026-integrity-alerts': integrityAlerts,
  '0027-cheaper-vote-row': cheaperVoteRow,
  '0028-set-aside-index': setAsideIndex,
};
