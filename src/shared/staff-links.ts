/**
 * The addresses of staff links (issue 34): an invite's and a one-time sign-in's token travel in
 * the address's fragment (`/admin#invite=…`), which a browser never sends to a server, so no
 * proxy or server log can hold one. The panel reads it, then takes it out of the address bar, and
 * sends the token in a request's body. Built and read here only.
 */
export const STAFF_LINK_KINDS = ['invite', 'sign-in'] as const;
export type StaffLinkKind = (typeof STAFF_LINK_KINDS)[number];

export const staffLink = (publicUrl: string, kind: StaffLinkKind, token: string): string =>
  `${publicUrl}/admin#${kind}=${token}`;

/** The link in an address's fragment (`#invite=…`), if it holds one. */
export function readStaffLink(hash: string): { kind: StaffLinkKind; token: string } | null {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  for (const kind of STAFF_LINK_KINDS) {
    const token = fragment.get(kind);
    if (token) return { kind, token };
  }
  return null;
}
