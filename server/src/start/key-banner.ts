/** How to sign in to the local API at `origin`: the first key framed with its sign-in link, printed only at the start that created it. */
export function signInMessage(origin: string, initialKey: string | null, apiKeyConfigured: boolean): string {
  const settings = `${origin}/settings`;
  // The only place a key is ever printed: once, at the start that created it.
  if (initialKey) return keyBanner(initialKey, `${settings}#api_key=${encodeURIComponent(initialKey)}`);
  if (apiKeyConfigured) return `Sign in at ${settings} with a key from API_KEY.`;
  return `Sign in at ${settings} with your API key (shown at first start; \`npm run keys -- create\` makes another).`;
}

function keyBanner(key: string, link: string): string {
  const lines = [
    'An API key was created for this server. It is shown this once and stored only as a hash:',
    '',
    `    ${key}`,
    '',
    'Open this link to sign the dashboard in (the part after # stays in the browser):',
    '',
    `    ${link}`,
    '',
    'Manage keys with `npm run keys -- list|create|revoke`.',
  ];
  const width = Math.max(...lines.map((line) => line.length)) + 2;
  const rule = '='.repeat(width + 2);
  return ['', rule, ...lines.map((line) => `| ${line.padEnd(width - 1)}|`), rule, ''].join('\n');
}
