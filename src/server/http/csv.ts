/**
 * One CSV cell, for every CSV the site writes (a poll's votes, the audit log, open data): cells a
 * spreadsheet would run as formulas are neutralised with a leading apostrophe (OWASP's rule),
 * whatever follows, line breaks included; a cell holding a quote, comma or line break is quoted.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
