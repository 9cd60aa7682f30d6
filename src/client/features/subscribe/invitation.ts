import { storage } from '../../lib/storage.js';

/**
 * Whether a vote should bring up the subscribe invitation: only until it has been seen (closed
 * any way) or the visitor has subscribed. Kept apart from the dialog, which loads only when shown.
 */
export const invitationDue = () => !storage.emailModalSeen() && !storage.emailSubscribed();
