/**
 * The dialogs' scroll lock adds a <style> element; the page's CSP lets it in with this nonce.
 * Imported by the dialogs (dialog.tsx, confirm.tsx), which load when first opened, so a page
 * that opens none never runs it. The nonce is the page's last element, so it is read once the
 * page has been read to the end.
 */
import { setNonce } from 'get-nonce';
import { STYLE_NONCE_ELEMENT_ID } from '../../../shared/style-nonce.js';

function adoptStyleNonce() {
  try {
    const nonce: unknown = JSON.parse(document.getElementById(STYLE_NONCE_ELEMENT_ID)?.textContent ?? 'null');
    if (typeof nonce === 'string' && !nonce.startsWith('__')) setNonce(nonce);
  } catch {
    // No nonce: the scroll lock's style is refused, and the page still works.
  }
}

// Drawn on the server too, where there is no page to read.
if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', adoptStyleNonce, { once: true });
  else adoptStyleNonce();
}
