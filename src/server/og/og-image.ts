/**
 * Link-preview images, 1200×630 PNG: the site's name, the question, and either the final
 * results (a past poll, or today's once voting has closed) or a call to vote (today's poll while
 * voting is open: no peeking). Laid out by satori, rasterised by resvg, in Inter from the npm
 * registry (all its subsets: Latin, Cyrillic, Greek, Vietnamese). Emoji and control characters
 * are left out of the images: the font has no emoji, and a box is worse than a gap. Other
 * scripts (CJK, Arabic) show as the font's "no glyph" boxes; the page's own tags carry the text.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Resvg } from '@resvg/resvg-js';
import type satoriFn from 'satori';
import type { PollResults } from '../../shared/api.js';
import { setAsideNote, votesText, type ResultItem } from '../../shared/results.js';

export const OG_WIDTH = 1200;
export const OG_HEIGHT = 630;

const GREEN = '#15803d';
const GREEN_DARK = '#14532d';
const INK = '#1c1917';
const MUTED = '#57534e';
const PALETTE = ['#15803d', '#1d4ed8', '#b45309', '#7e22ce', '#be123c', '#0f766e'];

export type OgCard =
  | ({ kind: 'results'; siteName: string; pollLabel: string; closed: boolean } & Pick<
      PollResults,
      'question' | 'results' | 'totalVotes' | 'setAsideVotes'
    >)
  | { kind: 'vote'; siteName: string; pollLabel: string; question: string; closesAt: string }
  | { kind: 'site'; siteName: string; tagline: string };

interface Element {
  type: string;
  props: { style?: Record<string, unknown>; children?: Child | Child[] };
}
type Child = Element | string;

const h = (type: string, style: Record<string, unknown>, ...children: Child[]): Element => ({
  type,
  props: { style: { display: 'flex', ...style }, children: children.length === 1 ? children[0] : children },
});

/** Emoji and their joiners, and control and format characters (bidi overrides, zero widths): never drawn. */
const UNDRAWN = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{FE0F}\u{20E3}\p{Cc}\p{Cf}]/gu;

function drawable(text: string): string {
  return text.replace(/\s+/g, ' ').replace(UNDRAWN, '').replace(/ {2,}/g, ' ').trim();
}

const PADDING_X = 64;
const PADDING_Y = 40;
const BORDER_TOP = 14;
const LINE_HEIGHT = 1.2;
const HEADER_SIZE = 28;
const QUESTION_MARGIN = 24;
const FOOTER_SIZE = 26;
const FOOTER_MARGIN = 18;
/** Height left for everything between the frame's padding. */
const INNER_HEIGHT = OG_HEIGHT - BORDER_TOP - 2 * PADDING_Y;
const INNER_WIDTH = OG_WIDTH - 2 * PADDING_X;
const HEADER_BLOCK = HEADER_SIZE * LINE_HEIGHT + QUESTION_MARGIN;
const FOOTER_BLOCK = FOOTER_MARGIN + FOOTER_SIZE * LINE_HEIGHT;
/** "3 votes set aside after review", a smaller line under the total when there is one. */
const NOTE_SIZE = 22;
const NOTE_BLOCK = 4 + NOTE_SIZE * LINE_HEIGHT;
/** The "Vote now" pill: 36px type in 18px of padding above and below. */
const VOTE_ROW = 36 * LINE_HEIGHT + 36;

/** Sizes of the result rows: tighter for five or six options. */
function barMetrics(options: number) {
  const many = options > 4;
  const labelSize = many ? 22 : 28;
  const barHeight = many ? 10 : 16;
  const innerGap = many ? 4 : 6;
  const rowGap = many ? 6 : 16;
  const height = options * (labelSize * LINE_HEIGHT + innerGap + barHeight) + (options - 1) * rowGap;
  return { labelSize, barHeight, innerGap, rowGap, height };
}

/**
 * The largest type (up to `maxSize`) at which the question fits in `height`, by an estimate of
 * Inter ExtraBold's width (about 0.56 em a character, less what word wrapping wastes). A
 * question too long even at the smallest size is cut with an ellipsis.
 */
function fitQuestion(text: string, height: number, maxSize: number): { size: number; lines: number } {
  const linesAt = (size: number) => Math.max(1, Math.floor(height / (size * LINE_HEIGHT)));
  const sizes = [64, 56, 52, 46, 40, 36, 32, 28].filter((size) => size <= maxSize);
  for (const size of sizes) {
    const perLine = Math.floor((INNER_WIDTH / (size * 0.56)) * 0.85);
    if (Math.ceil(text.length / perLine) <= linesAt(size)) return { size, lines: linesAt(size) };
  }
  const smallest = sizes.at(-1) ?? 28;
  return { size: smallest, lines: linesAt(smallest) };
}

function header(siteName: string, label: string): Element {
  return h(
    'div',
    { justifyContent: 'space-between', alignItems: 'center', flexShrink: 0 },
    h(
      'div',
      { color: GREEN, fontSize: HEADER_SIZE, fontWeight: 800, letterSpacing: 2, lineHeight: LINE_HEIGHT },
      drawable(siteName).toUpperCase(),
    ),
    h('div', { color: MUTED, fontSize: 26, flexShrink: 0, marginLeft: 24 }, label),
  );
}

function question(text: string, { size, lines }: { size: number; lines: number }): Element {
  return h(
    'div',
    {
      color: INK,
      fontSize: size,
      fontWeight: 800,
      lineHeight: LINE_HEIGHT,
      marginTop: QUESTION_MARGIN,
      flexShrink: 0,
      wordBreak: 'break-word',
      // satori clamps only block boxes; the ellipsis marks a question cut short.
      display: 'block',
      lineClamp: lines,
      maxHeight: Math.ceil(size * LINE_HEIGHT * lines),
      overflow: 'hidden',
    },
    drawable(text),
  );
}

function resultBars(results: ResultItem[]): Element {
  const { labelSize, barHeight, innerGap, rowGap } = barMetrics(results.length);
  return h(
    'div',
    { flexDirection: 'column', marginTop: 'auto', gap: rowGap, flexShrink: 0 },
    ...results.map((result, index) =>
      h(
        'div',
        { flexDirection: 'column', gap: innerGap },
        h(
          'div',
          {
            justifyContent: 'space-between',
            alignItems: 'baseline',
            fontSize: labelSize,
            lineHeight: LINE_HEIGHT,
            color: INK,
          },
          h(
            'div',
            {
              display: 'block',
              flexShrink: 1,
              minWidth: 0,
              overflow: 'hidden',
              whiteSpace: 'nowrap',
              textOverflow: 'ellipsis',
            },
            drawable(result.option) || '-',
          ),
          h('div', { fontWeight: 800, flexShrink: 0, marginLeft: 24 }, `${result.percentage}%`),
        ),
        h(
          'div',
          { height: barHeight, borderRadius: 8, backgroundColor: '#e7e5e4' },
          h('div', {
            width: `${Math.max(result.percentage, 1)}%`,
            height: '100%',
            borderRadius: 8,
            backgroundColor: PALETTE[index % PALETTE.length],
          }),
        ),
      ),
    ),
  );
}

function layout(card: OgCard): Element {
  const frame = (...children: Child[]) =>
    h(
      'div',
      {
        flexDirection: 'column',
        boxSizing: 'border-box',
        width: OG_WIDTH,
        height: OG_HEIGHT,
        padding: `${PADDING_Y}px ${PADDING_X}px`,
        backgroundColor: '#ffffff',
        borderTop: `${BORDER_TOP}px solid ${GREEN}`,
        fontFamily: 'Inter',
      },
      ...children,
    );
  if (card.kind === 'site') {
    return frame(
      header(card.siteName, ''),
      h(
        'div',
        { flexDirection: 'column', justifyContent: 'center', flexGrow: 1, paddingBottom: 40 },
        question('One education hot take a day.', { size: 68, lines: 2 }),
        h('div', { color: MUTED, fontSize: 36, marginTop: 28, lineHeight: 1.3 }, card.tagline),
      ),
    );
  }
  if (card.kind === 'vote') {
    return frame(
      header(card.siteName, card.pollLabel),
      // Below the question: at least 40px of air, then the "Vote now" pill.
      question(card.question, fitQuestion(card.question, INNER_HEIGHT - HEADER_BLOCK - 40 - VOTE_ROW, 64)),
      h(
        'div',
        { marginTop: 'auto', alignItems: 'center', gap: 28, flexShrink: 0 },
        h(
          'div',
          {
            backgroundColor: GREEN,
            color: '#ffffff',
            fontSize: 36,
            lineHeight: LINE_HEIGHT,
            fontWeight: 800,
            padding: '18px 40px',
            borderRadius: 999,
            flexShrink: 0,
          },
          'Vote now',
        ),
        // Two lines, so the close time with its zone never breaks inside.
        h(
          'div',
          { flexDirection: 'column', color: MUTED, fontSize: 28, lineHeight: 1.3 },
          h('div', {}, 'Results after you vote'),
          h('div', {}, `Voting closes at ${card.closesAt}`),
        ),
      ),
    );
  }
  // The bars and the footer take what they need, with at least 16px of air; the question gets the rest.
  const note = setAsideNote(card.setAsideVotes);
  const footerHeight = FOOTER_BLOCK + (note === null ? 0 : NOTE_BLOCK);
  const questionHeight = INNER_HEIGHT - HEADER_BLOCK - 16 - barMetrics(card.results.length).height - footerHeight;
  return frame(
    header(card.siteName, card.pollLabel),
    question(card.question, fitQuestion(card.question, questionHeight, 52)),
    resultBars(card.results),
    h(
      'div',
      {
        justifyContent: 'space-between',
        marginTop: FOOTER_MARGIN,
        color: MUTED,
        fontSize: FOOTER_SIZE,
        lineHeight: LINE_HEIGHT,
        flexShrink: 0,
      },
      h(
        'div',
        { flexDirection: 'column' },
        h('div', { color: GREEN_DARK, fontWeight: 700 }, votesText(card.totalVotes)),
        ...(note === null ? [] : [h('div', { fontSize: NOTE_SIZE, marginTop: 4 }, note)]),
      ),
      h('div', {}, card.closed ? 'Poll closed' : 'Voting has closed for today'),
    ),
  );
}

interface Renderer {
  satori: typeof satoriFn;
  Resvg: typeof Resvg;
  fonts: { name: string; data: Buffer; weight: 400 | 700 | 800; style: 'normal' }[];
}

let renderer: Promise<Renderer> | undefined;

/** Loaded on the first image asked for: the site starts without paying for it. */
function loadRenderer(): Promise<Renderer> {
  renderer ??= (async () => {
    const require = createRequire(import.meta.url);
    const fontDir = path.join(path.dirname(require.resolve('@fontsource/inter/package.json')), 'files');
    // One name per subset: satori keeps one font per name and weight, and falls back across
    // names for the glyphs the first lacks.
    const font = (subset: string, weight: 400 | 700 | 800) => ({
      name: subset === 'latin' ? 'Inter' : `Inter ${subset}`,
      data: fs.readFileSync(path.join(fontDir, `inter-${subset}-${weight}-normal.woff`)),
      weight,
      style: 'normal' as const,
    });
    const [{ default: satori }, { Resvg }] = await Promise.all([import('satori'), import('@resvg/resvg-js')]);
    const subsets = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese'];
    const weights = [400, 700, 800] as const;
    return { satori, Resvg, fonts: subsets.flatMap((subset) => weights.map((weight) => font(subset, weight))) };
  })();
  return renderer;
}

export async function renderOgImage(card: OgCard): Promise<Buffer> {
  const { satori, Resvg, fonts } = await loadRenderer();
  const svg = await satori(layout(card) as Parameters<typeof satori>[0], { width: OG_WIDTH, height: OG_HEIGHT, fonts });
  return new Resvg(svg, { fitTo: { mode: 'width', value: OG_WIDTH } }).render().asPng();
}
