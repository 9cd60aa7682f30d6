/** Which requests are the JSON API (headers, the not-found answer) or the staff's page (headers). */
const API_PATH = /^\/(?:api|healthz)(?:[/?]|$)/;

/** True for the JSON API and the health check (with or without a query string). */
export function isApiPath(url: string): boolean {
  return API_PATH.test(url);
}

const STAFF_PAGE_PATH = /^\/admin(?:[/?]|$)/;

/** True for the staff's page: /admin, with or without a query string or more path. */
export function isStaffPagePath(url: string): boolean {
  return STAFF_PAGE_PATH.test(url);
}
