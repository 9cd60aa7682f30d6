/*
 * The footer's theme choice (System / Light / Dark), applied before the body paints: index.html
 * loads this file, blocking, from <head>, so a stored Dark never flashes light. A static file of
 * the site's own, so the strict CSP (no inline scripts) lets it run. Keep the storage key and
 * values in step with src/client/lib/theme.ts.
 */
(function () {
  try {
    var theme = localStorage.getItem('theme');
    if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
  } catch {
    // Storage refused (privacy settings): the system's scheme it is.
  }
})();
