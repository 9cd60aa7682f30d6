/**
 * The breakdowns of a poll whose voting has closed (a past poll, or today's from the close), with
 * the invitation to describe oneself. The poll's counts stand still by then, so an answer given
 * now marks the visitor's group and counts from their next vote on.
 */
import BreakdownSection, { type BreakdownSectionProps } from '../../features/breakdown/breakdown-section.js';
import { ProfileInvitation } from '../../features/profile/profile-invitation.js';

export function ClosedPollBreakdown(props: Omit<BreakdownSectionProps, 'invitation'>) {
  return (
    <BreakdownSection
      {...props}
      invitation={
        <ProfileInvitation
          intro="Say a little about yourself to see your group marked, and so your votes count in future breakdowns."
          thanks="Thank you! Your group is marked, and your next votes will count in the breakdowns."
        />
      }
    />
  );
}
