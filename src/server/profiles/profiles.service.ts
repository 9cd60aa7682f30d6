/**
 * The optional anonymous profile of a browser (its voter id), and forgetting a browser.
 *
 * A vote is counted in its voter's groups as they were when it was cast (the votes trigger),
 * so editing a profile never changes a past poll's breakdown. Today's is the exception, while
 * voting is open: "vote, then tell us about you" should count today, so a change moves this
 * voter's vote on today's poll to the new groups (if it is counted: a held or discounted vote
 * is in no group). From the close time on, today's breakdown is shown and no longer moves: a
 * change then would let someone watching it see one vote move.
 */
import type { Profile } from '../../shared/api.js';
import { EMPTY_PROFILE, PROFILE_DIMENSION_IDS, type ProfileDimension } from '../../shared/profile.js';
import type { ProfileUpdate } from '../../shared/schemas.js';
import { votingDayAt } from '../../shared/time.js';
import { moveVoteBetweenGroups } from '../breakdowns/breakdowns.repository.js';
import type { Db } from '../db/connection.js';
import { findActivePollId } from '../polls/polls.repository.js';
import type { ServiceDeps } from '../service-deps.js';
import { detachEmails, findCountedVoterChoice } from '../votes/votes.repository.js';
import { dropProfileCopies, recopyVoterProfile } from '../weighting/weighting.repository.js';
import { deleteProfile, findProfileAnswers, setProfileAnswer } from './profiles.repository.js';

/** The stored answers as a Profile; an answer the lists no longer have reads as not given. */
async function readProfile(db: Db, voterId: string): Promise<Profile> {
  const answers = await findProfileAnswers(db, voterId);
  const profile: Record<ProfileDimension, string | null> = { ...EMPTY_PROFILE };
  for (const dimension of PROFILE_DIMENSION_IDS) profile[dimension] = answers.get(dimension) ?? null;
  return profile as Profile;
}

export function createProfilesService(
  { db, clock, site }: Pick<ServiceDeps, 'db' | 'clock' | 'site'>,
  {
    forgetAlso,
  }: {
    /** What else "Forget this browser" deletes: its push subscriptions (push/). */
    forgetAlso?: (voterId: string) => Promise<void>;
  } = {},
) {
  return {
    /** This browser's profile; every answer null for a browser without one (or without a voter id). */
    async profile(voterId: string | null): Promise<Profile> {
      return voterId === null ? { ...EMPTY_PROFILE } : readProfile(db, voterId);
    },

    /** Applies the answers given (an id, or null to clear); the others stay. Gives the whole profile. */
    async save(voterId: string, update: ProfileUpdate): Promise<Profile> {
      const now = clock.now();
      const votingOpen = votingDayAt(now, site).votingOpen;
      return db.transaction().execute(async (trx) => {
        const before = await readProfile(trx, voterId);
        const after: Profile = { ...before };
        const moves: { dimension: ProfileDimension; from: string | null; to: string | null }[] = [];
        for (const dimension of PROFILE_DIMENSION_IDS) {
          const value = update[dimension];
          if (value === undefined || value === before[dimension]) continue;
          (after as Record<ProfileDimension, string | null>)[dimension] = value;
          moves.push({ dimension, from: before[dimension], to: value });
          await setProfileAnswer(trx, voterId, dimension, value, now);
        }
        if (moves.length > 0 && votingOpen) {
          const todayId = await findActivePollId(trx);
          const vote = todayId === undefined ? undefined : await findCountedVoterChoice(trx, todayId, voterId);
          if (todayId !== undefined && vote) {
            await moveVoteBetweenGroups(trx, { pollId: todayId, optionIndex: vote.optionIndex }, moves);
          }
          // After the group tallies: the order staff's recount takes their locks in (review.service.ts).
          if (todayId !== undefined) await recopyVoterProfile(trx, todayId, voterId);
        }
        return after;
      });
    },

    /**
     * Forgets this browser: its profile, the copies of it on its votes, the e-mails on its votes
     * and its push subscriptions. The votes stay counted, in their groups and profile tallies too,
     * but nothing ties them to anyone any more.
     */
    async forget(voterId: string | null): Promise<void> {
      if (voterId === null) return;
      await db.transaction().execute(async (trx) => {
        await deleteProfile(trx, voterId);
        await dropProfileCopies(trx, voterId);
        await detachEmails(trx, voterId);
      });
      await forgetAlso?.(voterId);
    },
  };
}

export type ProfilesService = ReturnType<typeof createProfilesService>;
