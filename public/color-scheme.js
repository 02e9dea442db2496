// Runs before the first paint (a plain script, allowed by the CSP's script-src 'self'), so a dark-mode
// visitor never sees a white flash. The key matches COLOR_SCHEME_STORAGE_KEY in src/app/theme.ts.
(function () {
  var scheme = 'auto';
  try {
    var stored = window.localStorage.getItem('webpage-reports-color-scheme');
    if (stored === 'light' || stored === 'dark' || stored === 'auto') scheme = stored;
  } catch {
    // Storage may be disabled; the system preference still applies.
  }
  if (scheme === 'auto') {
    scheme =
      window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();
