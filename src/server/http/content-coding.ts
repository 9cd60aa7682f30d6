/**
 * The compressions a response is sent in: pages (pages/brotli-parts.ts, gzip-parts.ts) and
 * documents built once (built-document.ts).
 */
export type ContentCoding = 'br' | 'gzip';

/**
 * How to compress a response for this Accept-Encoding header: Brotli or gzip, whichever it weighs
 * more (Brotli on a tie: smaller), each named with a weight above 0 or, when not named, taken
 * through `*`; null when it takes neither.
 */
export function contentCodingFor(header: string | undefined): ContentCoding | null {
  if (!header) return null;
  // Browsers send one of a handful of headers: each is read once.
  const known = answers.get(header);
  if (known !== undefined) return known;
  const coding = read(header);
  if (answers.size >= MAX_ANSWERS) answers.clear();
  answers.set(header, coding);
  return coding;
}

const MAX_ANSWERS = 100;
const answers = new Map<string, ContentCoding | null>();

function read(header: string): ContentCoding | null {
  const weights = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [name = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    const weight = params.find((param) => param.startsWith('q='));
    weights.set(name, weight === undefined ? 1 : Number(weight.slice(2)));
  }
  const weightOf = (coding: ContentCoding) => {
    const weight = weights.get(coding) ?? weights.get('*') ?? 0;
    return Number.isFinite(weight) && weight > 0 ? weight : 0;
  };
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  if (br === 0 && gzip === 0) return null;
  return br >= gzip ? 'br' : 'gzip';
}
