/**
 * The id of the element holding this page's style nonce (JSON), for the library that adds a
 * <style> element. It is the page's last element: the one part of a page that differs between
 * responses comes after all the rest, which is compressed once. Apart from site-config.ts, as
 * only the dialogs read it, once opened (client components/ui/style-nonce.ts).
 */
export const STYLE_NONCE_ELEMENT_ID = 'csp-nonce';
