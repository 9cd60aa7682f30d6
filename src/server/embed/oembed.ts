/**
 * oEmbed (https://oembed.com): a consumer given the address of today's page or a poll's page
 * asks GET /oembed?url=…&format=json and gets a `rich` answer holding the iframe to embed.
 */
import { EMBED_MIN_WIDTH, EMBED_WIDTH, embedHeight, iframeCode, TODAY_EMBED_PATH } from '../../shared/embed.js';
import { parsePollPath, pollEmbed } from '../../shared/poll-links.js';

/**
 * The embed that shows a page of the site: `/` is today's poll, `/poll-N` that poll (its
 * number too); undefined for any other address.
 */
export function embedFor(url: string, publicUrl: string): { path: string; pollNumber: number | null } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const site = new URL(publicUrl);
  // http and https name the same site; any other host is not ours.
  if (parsed.host !== site.host || !/^https?:$/.test(parsed.protocol)) return undefined;
  if (parsed.pathname === '/' || parsed.pathname === '') return { path: TODAY_EMBED_PATH, pollNumber: null };
  const pollNumber = parsePollPath(parsed.pathname);
  return pollNumber === null ? undefined : { path: pollEmbed.path(pollNumber), pollNumber };
}

export interface OEmbedAnswer {
  version: '1.0';
  type: 'rich';
  provider_name: string;
  provider_url: string;
  title: string;
  html: string;
  width: number;
  height: number;
  cache_age: number;
}

export function oembedAnswer({
  siteName,
  publicUrl,
  embedPath,
  question,
  optionCount,
  maxWidth,
  maxHeight,
}: {
  siteName: string;
  publicUrl: string;
  embedPath: string;
  question: string;
  optionCount: number;
  maxWidth?: number | undefined;
  maxHeight?: number | undefined;
}): OEmbedAnswer {
  const width = Math.max(EMBED_MIN_WIDTH, Math.min(EMBED_WIDTH, maxWidth ?? EMBED_WIDTH));
  const height = Math.min(embedHeight(optionCount), maxHeight ?? Infinity);
  return {
    version: '1.0',
    type: 'rich',
    provider_name: siteName,
    provider_url: `${publicUrl}/`,
    title: question,
    html: iframeCode({ src: `${publicUrl}${embedPath}`, title: `${question} · ${siteName}`, width, height }),
    width,
    height,
    cache_age: 3600,
  };
}
