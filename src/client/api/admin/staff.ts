/** The staff calls (issue 27): people, invites, sessions, passkeys, password, audit log. */
import {
  infiniteQueryOptions,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type {
  AdminSession,
  AuditCheck,
  AuditPage,
  Confirmation,
  InviteDetails,
  StaffInvite,
  StaffMember,
  StaffPasskey,
  StaffSession,
} from '../../../shared/api.js';
import type { StaffRole } from '../../../shared/staff-permissions.js';
import { apiRequest } from '../../lib/api-client.js';

const staffKey = ['admin', 'staff'] as const;

export const staffQuery = queryOptions({
  queryKey: [...staffKey, 'people'],
  queryFn: () => apiRequest<StaffMember[]>('/api/admin/staff'),
});
export const invitesQuery = queryOptions({
  queryKey: [...staffKey, 'invites'],
  queryFn: () => apiRequest<StaffInvite[]>('/api/admin/invites'),
});
export const sessionsQuery = (everyone: boolean) =>
  queryOptions({
    queryKey: [...staffKey, 'sessions', everyone],
    queryFn: () => apiRequest<StaffSession[]>(`/api/admin/sessions${everyone ? '?all=true' : ''}`),
  });
export const passkeysQuery = queryOptions({
  queryKey: [...staffKey, 'passkeys'],
  queryFn: () => apiRequest<StaffPasskey[]>('/api/admin/passkeys'),
});

export const useStaff = (enabled: boolean) => useQuery({ ...staffQuery, enabled });
export const useInvites = () => useQuery(invitesQuery);
export const useSessions = (everyone: boolean) => useQuery(sessionsQuery(everyone));
export const usePasskeys = () => useQuery(passkeysQuery);

/** A change to staff refreshes every staff list (and the session, whose person may have changed). */
function useStaffChange<A, R>(mutationFn: (argument: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}

export const useChangeStaff = () =>
  useStaffChange(({ id, ...change }: { id: number; role?: StaffRole; disabled?: boolean }) =>
    apiRequest<Confirmation>(`/api/admin/staff/${id}`, { method: 'PUT', body: change }),
  );
export const useInvite = () =>
  useStaffChange((body: { email: string; role: StaffRole }) =>
    apiRequest<StaffInvite & { link: string }>('/api/admin/invites', { method: 'POST', body }),
  );
export const useWithdrawInvite = () =>
  useStaffChange((id: number) => apiRequest<Confirmation>(`/api/admin/invites/${id}`, { method: 'DELETE' }));
export const useEndSession = () =>
  useStaffChange((id: number) => apiRequest<Confirmation>(`/api/admin/sessions/${id}`, { method: 'DELETE' }));
export const useRemovePasskey = () =>
  useStaffChange((id: string) => apiRequest<Confirmation>(`/api/admin/passkeys/${id}`, { method: 'DELETE' }));
export const useChangePassword = () =>
  useStaffChange((password: string) =>
    apiRequest<Confirmation>('/api/admin/password', { method: 'PUT', body: { password } }),
  );

// Getting in

export const signInWithPassword = (body: { email: string; password: string }) =>
  apiRequest<AdminSession>('/api/admin/login', { method: 'POST', body });
export const createOwner = (body: { adminPassword: string; email: string; displayName: string; password: string }) =>
  apiRequest<AdminSession>('/api/admin/setup', { method: 'POST', body });
export const signInWithLink = (token: string) =>
  apiRequest<AdminSession>('/api/admin/sign-in-link', { method: 'POST', body: { token } });
/** The token goes in the body: never in a URL, where logs keep it. */
export const lookUpInvite = (token: string) =>
  apiRequest<InviteDetails>('/api/admin/invites/lookup', { method: 'POST', body: { token } });
export const acceptInvite = (body: { token: string; displayName: string; password?: string; passkey?: unknown }) =>
  apiRequest<AdminSession>('/api/admin/invites/accept', { method: 'POST', body });

/** Any way in: afterwards, every admin query is read again. */
export function useGetIn<A>(mutationFn: (argument: A) => Promise<AdminSession>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['admin'] }) });
}

// The audit log

export interface AuditFilter {
  actor: string;
  action: string;
  from: string;
  to: string;
}

export function auditSearch(filter: AuditFilter): string {
  const params = new URLSearchParams();
  if (filter.actor) params.set('actor', filter.actor);
  if (filter.action) params.set('action', filter.action);
  if (filter.from) params.set('from', new Date(`${filter.from}T00:00:00`).toISOString());
  if (filter.to) params.set('to', new Date(`${filter.to}T23:59:59.999`).toISOString());
  return params.toString();
}

export const auditQuery = (filter: AuditFilter) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'audit', filter],
    queryFn: ({ pageParam }) =>
      apiRequest<AuditPage>(`/api/admin/audit?${auditSearch(filter)}${pageParam ? `&before=${pageParam}` : ''}`),
    initialPageParam: null as number | null,
    getNextPageParam: (page: AuditPage) => page.next,
  });
export const useAudit = (filter: AuditFilter) => useInfiniteQuery(auditQuery(filter));
export const auditCsvUrl = (filter: AuditFilter) => `/api/admin/audit.csv?${auditSearch(filter)}`;
export const useAuditCheck = () =>
  useQuery({ queryKey: ['admin', 'audit', 'check'], queryFn: () => apiRequest<AuditCheck>('/api/admin/audit/verify') });
