/**
 * The open data's licence: the JSON, the CSV, the Atom feed, the README and the terms page all
 * state this one, with the site's own name and address as the attribution.
 */
export const OPEN_DATA_LICENSE = {
  name: 'CC BY 4.0',
  title: 'Creative Commons Attribution 4.0 International',
  url: 'https://creativecommons.org/licenses/by/4.0/',
} as const;

/** Where the open data lives, as every page and the README name it. */
export const OPEN_DATA_PATHS = { json: '/data/polls.json', csv: '/data/polls.csv', feed: '/feed.xml' } as const;

/** The weighted line's targets, sources, scope, cap and thresholds (issue 26), so anyone can redo our numbers. */
export const WEIGHTING_DATA_PATH = '/data/weighting.json';

/** "Teacher Hot Take (https://…)": who to credit. */
export const attributionOf = (siteName: string, publicUrl: string) => `${siteName} (${publicUrl})`;

/** One sentence saying what may be done with the data and how to credit it. */
export function licenseNotice(siteName: string, publicUrl: string): string {
  return (
    `Poll results from ${attributionOf(siteName, publicUrl)} are licensed under ${OPEN_DATA_LICENSE.name} ` +
    `(${OPEN_DATA_LICENSE.url}): share and adapt them freely, crediting "${siteName}" with a link to ${publicUrl}.`
  );
}
