/**
 * "Share Chart Image": the results drawn on a canvas at twice the size (sharp on phones),
 * as a PNG, handed to the device's share sheet where it takes files, else downloaded.
 * Loaded only when someone asks for it.
 */
import type { PollResults } from '../../../shared/api.js';
import { setAsideNote } from '../../../shared/results.js';
import type { SiteConfig } from '../../../shared/site-config.js';
import { localDateAt, localTimeAt } from '../../../shared/time.js';
import { showsSliceLabel, shortLabel, votesText } from './chart-labels.js';
import { pieSlices } from './chart-geometry.js';
import { colorFor } from './palette.js';

/** The poll's results, with the site's name and time zone (for the file name's date and time). */
export type ChartImageInput = Pick<
  PollResults,
  'pollNumber' | 'question' | 'results' | 'totalVotes' | 'setAsideVotes'
> &
  Pick<SiteConfig, 'siteName' | 'timeZone'>;

/** A failure with the sentence the toast shows (spec section 8). */
export class ChartImageError extends Error {
  override name = 'ChartImageError';
}

const SCALE = 2;
const WIDTH = 600;
const PAD = 32;
const RADIUS = 130;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

function wrap(context: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    const candidate = line ? `${line} ${word}` : word;
    if (context.measureText(candidate).width > width && line) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

export async function chartImage(input: ChartImageInput): Promise<Blob> {
  if (input.results.length === 0) throw new ChartImageError('Chart not found. Please try again.');
  const measure = document.createElement('canvas').getContext('2d');
  if (!measure) throw new ChartImageError('Failed to create chart image. Please try again.');
  measure.font = `700 24px ${FONT}`;
  const titleLines = wrap(measure, input.question, WIDTH - 2 * PAD);
  const titleHeight = titleLines.length * 32;
  const legendTop = PAD + 28 + titleHeight + 24 + 2 * RADIUS + 28;
  const height = legendTop + input.results.length * 34 + 56;

  const canvas = document.createElement('canvas');
  canvas.width = WIDTH * SCALE;
  canvas.height = height * SCALE;
  const context = canvas.getContext('2d');
  if (!context) throw new ChartImageError('Failed to create chart image. Please try again.');
  context.scale(SCALE, SCALE);

  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, WIDTH, height);
  context.fillStyle = '#15803d';
  context.fillRect(0, 0, WIDTH, 8);

  context.fillStyle = '#15803d';
  context.font = `800 16px ${FONT}`;
  context.textBaseline = 'top';
  context.fillText(`${input.siteName.toUpperCase()} · POLL ${input.pollNumber}`, PAD, PAD);
  context.fillStyle = '#1c1917';
  context.font = `700 24px ${FONT}`;
  titleLines.forEach((line, i) => context.fillText(line, PAD, PAD + 28 + i * 32));

  const cx = WIDTH / 2;
  const cy = PAD + 28 + titleHeight + 24 + RADIUS;
  const slices = pieSlices(
    input.results.map((r) => r.votes),
    cx,
    cy,
    RADIUS,
  );
  if (slices.length === 0) {
    context.fillStyle = '#e7e5e4';
    context.beginPath();
    context.arc(cx, cy, RADIUS, 0, 2 * Math.PI);
    context.fill();
  }
  for (const slice of slices) {
    context.fillStyle = colorFor(slice.index);
    context.fill(new Path2D(slice.path));
    context.strokeStyle = '#ffffff';
    context.lineWidth = 2;
    context.stroke(new Path2D(slice.path));
  }
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.font = `800 18px ${FONT}`;
  context.fillStyle = '#ffffff';
  for (const slice of slices) {
    const result = input.results[slice.index];
    if (result && showsSliceLabel(result.percentage))
      context.fillText(`${result.percentage}%`, slice.labelX, slice.labelY);
  }

  context.textAlign = 'left';
  context.font = `500 18px ${FONT}`;
  input.results.forEach((result, i) => {
    const y = legendTop + i * 34;
    context.fillStyle = colorFor(i);
    context.fillRect(PAD, y - 9, 18, 18);
    context.fillStyle = '#1c1917';
    context.fillText(shortLabel(result.option, 40), PAD + 30, y);
    context.textAlign = 'right';
    context.fillText(`${result.percentage}% · ${votesText(result.votes)}`, WIDTH - PAD, y);
    context.textAlign = 'left';
  });
  context.fillStyle = '#57534e';
  context.font = `600 16px ${FONT}`;
  const note = setAsideNote(input.setAsideVotes);
  context.fillText(`${votesText(input.totalVotes)} in total${note ? ` · ${note}` : ''}`, PAD, height - 28);

  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png', 0.95));
  if (!blob) throw new ChartImageError('Failed to create chart image. Please try again.');
  return blob;
}

/** hot-take-poll-12-20261121-191503.png: stamped with the site's date and time, not the browser's. */
export function chartImageFileName(pollNumber: number, timeZone: string, now = new Date()): string {
  const stamp = `${localDateAt(now, timeZone).replaceAll('-', '')}-${localTimeAt(now, timeZone).replaceAll(':', '')}`;
  return `hot-take-poll-${pollNumber}-${stamp}.png`;
}

/** Shares the image as a file where the browser can, else downloads it. */
export async function shareChartImage(input: ChartImageInput): Promise<'shared' | 'downloaded' | 'cancelled'> {
  const blob = await chartImage(input);
  const file = new File([blob], chartImageFileName(input.pollNumber, input.timeZone), { type: 'image/png' });
  if (typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] })) {
    try {
      await navigator.share({ files: [file], title: input.question });
      return 'shared';
    } catch (error) {
      if ((error as Error).name === 'AbortError') return 'cancelled';
      throw new ChartImageError('Failed to share chart image. Please try again.');
    }
  }
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return 'downloaded';
}
