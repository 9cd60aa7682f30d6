/** Which requests are the JSON API, for headers and the not-found answer. */
const API_PATH = /^\/(?:api|healthz)(?:[/?]|$)/;

/** True for the JSON API and the health check (with or without a query string). */
export function isApiPath(url: string): boolean {
  return API_PATH.test(url);
}
