/**
 * The e-mail addresses of the issue 10 audit, for tests: each was stored as a new subscriber and
 * mailed, and a mailer could read each as a list of addresses or as a name. The browser's forms
 * and every server route that takes an address must refuse them all.
 */
export const AUDIT_HOSTILE_ADDRESSES: readonly string[] = [
  '"><img src=x onerror=alert(1)>@x.yz',
  'a\u0000b@x.yz',
  'x<victim@school.example>',
  'victim@school.example,1',
  'group:victim@school.example;',
  '(c)victim@school.example',
  'victim@school.example, stranger@example.org',
];
