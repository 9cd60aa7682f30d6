/**
 * The page every screen of the web app starts from: the built index.html with this site's
 * name and configuration written in, and a fresh style nonce for each response.
 */
import { randomBytes } from 'node:crypto';
import { HTML_PLACEHOLDERS, SITE_CONFIG_ELEMENT_ID, type SiteConfig } from '../../shared/site-config.js';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** JSON that cannot end the <script> element it sits in, whatever the strings hold. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

export interface RenderedPage {
  html: string;
  styleNonce: string;
}

export function createAppHtml(template: string, site: SiteConfig): () => RenderedPage {
  const page = template
    .replaceAll(HTML_PLACEHOLDERS.siteName, escapeHtml(site.siteName))
    .replace(HTML_PLACEHOLDERS.siteConfig, jsonForScript(site));
  if (!template.includes(`id="${SITE_CONFIG_ELEMENT_ID}"`)) {
    throw new Error(`index.html has no <script id="${SITE_CONFIG_ELEMENT_ID}"> for the site configuration`);
  }
  return () => {
    const styleNonce = randomBytes(16).toString('base64');
    return { html: page.replaceAll(HTML_PLACEHOLDERS.nonce, styleNonce), styleNonce };
  };
}
