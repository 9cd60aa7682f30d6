/** Test helpers for staff: a person of a given role, signed in. */
import type { StaffRole } from '../../shared/staff-permissions.js';
import { hashPassword } from '../staff/password.js';
import { insertStaff } from '../staff/staff.repository.js';
import type { TestApp } from './test-app.js';
import { Visitor } from './visitor.js';

export const STAFF_TEST_PASSWORD = 'a long staff test passphrase';

/** Adds a person with `role` (straight into the table) and signs them in from a new browser. */
export async function signedInStaff(
  t: TestApp,
  role: StaffRole,
  email = `${role}-${Math.random().toString(36).slice(2, 8)}@school.example`,
): Promise<{ id: number; visitor: Visitor; email: string }> {
  const id = await insertStaff(
    t.db,
    { email, displayName: `Test ${role}`, role, passwordHash: await hashPassword(STAFF_TEST_PASSWORD) },
    t.clock.now().toISOString(),
  );
  const visitor = new Visitor(t.app, { origin: t.config.site.publicUrl });
  const response = await visitor.post('/api/admin/login', { email, password: STAFF_TEST_PASSWORD });
  if (response.statusCode !== 200) throw new Error(`could not sign in the ${role}: ${response.body}`);
  return { id, visitor, email };
}
