/**
 * Draws the app's icons for the web app manifest and the home screen from the favicon's flame,
 * with resvg (already used for link previews): `node scripts/make-icons.mjs` writes them into
 * src/client/public/icons/, committed. "any" icons are the favicon, rounded; the maskable one
 * fills its square with green and keeps the flame inside the central 80% circle that every
 * launcher's mask leaves visible.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';

const out = path.resolve(import.meta.dirname, '../src/client/public/icons');
const FLAME = 'M33 8c2 10 14 14 14 28a15 15 0 0 1-30 0c0-7 4-11 7-14 0 5 2 8 5 9-1-9 2-17 4-23z';
const rounded = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#15803d"/><path d="${FLAME}" fill="#fde047"/></svg>`;
// The flame's box is about 30 x 48 around (32, 30); scaled by 0.6 it sits in the safe circle.
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#15803d"/><g transform="translate(32 32) scale(0.62) translate(-32 -30)"><path d="${FLAME}" fill="#fde047"/></g></svg>`;
const square = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#15803d"/><g transform="translate(32 32) scale(0.8) translate(-32 -30)"><path d="${FLAME}" fill="#fde047"/></g></svg>`;

mkdirSync(out, { recursive: true });
const draw = (svg, size, name) =>
  writeFileSync(path.join(out, name), new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng());
draw(rounded, 192, 'icon-192.png');
draw(rounded, 512, 'icon-512.png');
draw(maskable, 512, 'maskable-512.png');
draw(maskable, 192, 'maskable-192.png');
// iOS rounds home-screen icons itself and shows transparency as black: a full square.
draw(square, 180, 'apple-touch-icon.png');
