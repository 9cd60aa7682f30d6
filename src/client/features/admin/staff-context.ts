/** The signed-in person, for every part of the panel to show only what their role allows. */
import { createContext, useContext } from 'react';
import type { StaffMember } from '../../../shared/api.js';
import { can, type StaffAction } from '../../../shared/staff-permissions.js';

export const StaffContext = createContext<StaffMember | null>(null);

/** Whether the signed-in person may do `action` (the server refuses it otherwise anyway). */
export function useCan(action: StaffAction): boolean {
  const staff = useContext(StaffContext);
  return staff !== null && can(staff.role, action);
}
