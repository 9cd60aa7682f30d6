/**
 * The stylesheets of the lazy parts a server-drawn page drew. The client build splits its CSS
 * by chunk (vite.config.ts): the entry's sheet holds what every page shows, and each lazy part's
 * sheet comes with its code (the admin panel's, the dialogs', the toasts', the FAQ's). A page
 * drawn on the server names the parts it drew (client/lib/lazy-part.tsx); their sheets are
 * written into its <style> after the entry's (inline-assets.ts), so it paints styled with
 * scripts off, and what a page does not draw does not travel with it.
 *
 * Every part is looked up in the build's manifest once, at start: a server build whose parts
 * the client build does not have (one of them rebuilt alone) is refused then, not on a page.
 */
import { z } from '../../shared/zod.js';
import type { ReadAsset } from './inline-assets.js';

/** Where Vite writes the manifest (`build.manifest: true`), as an address under the client build. */
export const MANIFEST_PATH = '/.vite/manifest.json';

/** The part of Vite's build manifest read here: each chunk by its source module. */
const manifestSchema = z.record(
  z.string(),
  z.object({
    isEntry: z.boolean().optional(),
    imports: z.array(z.string()).optional(),
    css: z.array(z.string()).optional(),
  }),
);

/** The stylesheets of the lazy parts a page drew (sorted module names): their files and their CSS, joined. */
export type PartStyles = (parts: readonly string[]) => { files: readonly string[]; css: string };

export function createPartStyles({
  manifest,
  readAsset,
  lazyParts,
}: {
  /** The build manifest's JSON (null: the build has none). */
  manifest: string | null;
  readAsset: ReadAsset;
  /** Every lazy part the app has (SsrRenderer.lazyParts). */
  lazyParts: readonly string[];
}): PartStyles {
  if (manifest === null) throw new Error(`The client build has no ${MANIFEST_PATH}. Run npm run build.`);
  const chunks = manifestSchema.parse(JSON.parse(manifest));

  /** A part's sheets in the order Vite loads them (its imports' first), the entry's left out. */
  const sheetsOf = (key: string, seen: Set<string>): string[] => {
    const chunk = chunks[key];
    if (seen.has(key) || !chunk || chunk.isEntry) return [];
    seen.add(key);
    return [...(chunk.imports ?? []).flatMap((imported) => sheetsOf(imported, seen)), ...(chunk.css ?? [])];
  };

  const sheets = new Map<string, string[]>();
  const cssOf = new Map<string, string>();
  for (const part of lazyParts) {
    if (!chunks[part]) {
      throw new Error(`The client build has no lazy part ${part}, which the server build draws. Run npm run build.`);
    }
    sheets.set(part, sheetsOf(part, new Set()));
  }
  for (const file of new Set([...sheets.values()].flat())) {
    const css = readAsset(`/${file}`);
    if (css === null) throw new Error(`The client build has no ${file}. Run npm run build.`);
    // Written into a <style>: a sheet that could end its element is refused (the build writes none).
    if (/<\/style/i.test(css)) throw new Error(`${file} holds "</style", which cannot go inside a page's <style>.`);
    cssOf.set(file, css.trim());
  }

  const joined = new Map<string, { files: readonly string[]; css: string }>();
  return (parts) => {
    const key = parts.join('\n');
    let styles = joined.get(key);
    if (styles === undefined) {
      const files = [
        ...new Set(
          parts.flatMap((part) => {
            const partSheets = sheets.get(part);
            if (!partSheets) throw new Error(`${part} is not a lazy part of this build`);
            return partSheets;
          }),
        ),
      ];
      styles = { files, css: files.map((file) => cssOf.get(file) ?? '').join('\n') };
      joined.set(key, styles);
    }
    return styles;
  };
}
