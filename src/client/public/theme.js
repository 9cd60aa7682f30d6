/*
 * The footer's theme choice (System / Light / Dark), applied before the body paints: index.html
 * runs this file, blocking, from <head>, so a stored Dark never flashes light. The server writes
 * it into each page and names it by its hash in the CSP (http/inline-assets.ts); the dev server
 * serves it as a file. Keep the storage key and values in step with src/client/lib/theme.ts.
 */
(function () {
  try {
    var theme = localStorage.getItem('theme');
    if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
  } catch {
    // Storage refused (privacy settings): the system's scheme it is.
  }
})();
