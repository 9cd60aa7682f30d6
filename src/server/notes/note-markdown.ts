/**
 * Staff notes' Markdown: a safe subset, rendered on the server by markdown-it (a well-kept
 * parser, not one of our own). Paragraphs, line breaks, emphasis, inline code, lists and links;
 * raw HTML is off (a tag is shown as the text it is), images and headings are not enabled, and
 * a link goes only to http(s), mailto or a path on this site: markdown-it's own check refuses
 * javascript:, vbscript:, file: and data: (the subset allows none of them) and ours allows
 * only the schemes named. Every attribute is written escaped by markdown-it's renderer.
 */
import MarkdownIt from 'markdown-it';
import type { PollNote } from '../../shared/api.js';

const ALLOWED_LINK = /^(https?:\/\/|mailto:|\/(?!\/))/i;

const md = new MarkdownIt('zero', { html: false, linkify: true, breaks: true, typographer: false });
md.enable(['paragraph', 'list', 'newline', 'escape', 'entity', 'backticks', 'emphasis', 'link', 'linkify', 'autolink']);

md.validateLink = (url: string) => ALLOWED_LINK.test(url.trim());

// Links leave the site without passing it anything, and are not endorsements.
const defaultLinkOpen = md.renderer.rules.link_open;
md.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index]?.attrSet('rel', 'nofollow ugc noopener noreferrer');
  return defaultLinkOpen
    ? defaultLinkOpen(tokens, index, options, env, self)
    : self.renderToken(tokens, index, options);
};

export interface RenderedNote {
  html: string;
  /** The words alone, on one line: for link previews and plain-text e-mail. */
  text: string;
}

export function renderNote(body: string): RenderedNote {
  const tokens = md.parse(body, {});
  const words: string[] = [];
  for (const token of tokens) {
    if (token.type === 'paragraph_close' || token.type === 'list_item_close') words.push(' ');
    for (const child of token.children ?? []) {
      if (child.type === 'text' || child.type === 'code_inline') words.push(child.content);
      else if (child.type === 'softbreak' || child.type === 'hardbreak') words.push(' ');
    }
  }
  return {
    html: md.renderer.render(tokens, md.options, {}).trim(),
    text: words.join('').replace(/\s+/g, ' ').trim(),
  };
}

/** A stored note as readers get it. */
export const toPollNote = (note: { body: string; updatedAt: string }): PollNote => ({
  ...renderNote(note.body),
  updatedAt: note.updatedAt,
});

/**
 * A rendered note's links made absolute for where the site is not the page (an e-mail, a feed
 * reader): the renderer writes every href in double quotes with quotes escaped, and a path on the
 * site is the only relative link it allows.
 */
export const withAbsoluteLinks = (html: string, publicUrl: string): string =>
  html.replaceAll('href="/', `href="${publicUrl}/`);
