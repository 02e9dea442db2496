// What a report's URL (and password) must be before it is sent (the create form and Add many check alike), and the
// https URL an address typed without a scheme most likely means.
import { PASSWORD_MAX_LENGTH, URL_MAX_LENGTH, passwordLength } from '@/contract/values';
import { openPageHref } from './urls';

/** Why `url` cannot be sent as a report's URL, or null when it can. */
export function urlProblem(url: string): string | null {
  if (url === '') return 'Enter the address of the page to analyse.';
  if (url.length > URL_MAX_LENGTH) return `A URL can have at most ${URL_MAX_LENGTH} characters.`;
  if (!/^https?:\/\//i.test(url)) {
    if (httpsSuggestion(url) !== null) return 'Start the URL with https:// or http://.';
    return /^[a-z][a-z\d+.-]*:/i.test(url)
      ? 'Only http:// and https:// pages can be analysed.'
      : 'This is not a valid URL.';
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'This is not a valid URL.';
  }
  if (parsed.hostname === '') return 'The URL needs a host name, e.g. https://example.com/.';
  return null;
}

/** For an address typed without a scheme (`example.com/pricing`), the https URL it most likely means. */
export function httpsSuggestion(input: string): string | null {
  const text = input.trim();
  if (text === '' || /^[a-z][a-z\d+.-]*:\/\//i.test(text)) return null;
  // `example.com:8080/x` parses as scheme "example.com"; only real schemes rule a suggestion out.
  if (/^(?:https?|ftp|file|mailto|javascript|data):/i.test(text)) return null;
  return openPageHref(text);
}

/** Why a report's password (privacy Password) cannot be sent, or null when it can. */
export function passwordProblem(password: string): string | null {
  if (password === '') return 'Enter the password that will protect the report.';
  if (passwordLength(password) > PASSWORD_MAX_LENGTH) return `A password can have at most ${PASSWORD_MAX_LENGTH} characters.`;
  return null;
}
