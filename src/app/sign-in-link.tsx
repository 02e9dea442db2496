import { notifications } from '@mantine/notifications';
import { readConnection, saveConnection } from '@/api/connection';
import { takeSignInTarget } from '@/lib/sign-in-target';
import { HOME_PATH } from './navigation';

const KEY_PARAM = 'api_key';
// The path of the link the local server prints (`/settings#api_key=...`).
const SETTINGS_PATH = '/settings';

/**
 * Reads a sign-in link's key (`/settings#api_key=...`, a fragment no server ever sees), saves it as
 * Save without Remember would (this tab only) and strips it from the address bar at once, so it
 * stays out of history, bookmarks and screenshots. The server prints the link to Settings, but the
 * person wants the data: it leads to the page they were asked to sign in on (in this tab), else
 * to the reports. On any other path it stays there. Returns whether a key was taken.
 */
export function applySignInLink(): boolean {
  const { pathname, search, hash } = window.location;
  if (!hash.startsWith('#')) return false;
  const params = new URLSearchParams(hash.slice(1));
  if (!params.has(KEY_PARAM)) return false;

  const key = params.get(KEY_PARAM)?.trim() ?? '';
  params.delete(KEY_PARAM);
  const rest = params.toString();
  const address =
    key !== '' && pathname === SETTINGS_PATH
      ? (takeSignInTarget() ?? HOME_PATH)
      : `${pathname}${search}${rest ? `#${rest}` : ''}`;
  window.history.replaceState(window.history.state, '', address);
  if (key === '') return false;

  saveConnection({ baseUrl: readConnection().baseUrl, apiKey: key, remember: false });
  notifications.show({
    id: 'signed-in-from-link',
    color: 'teal',
    title: 'Signed in with the key from the link',
    message:
      'The key is kept for this browser tab only. To keep it on this device, tick Remember in Settings and save.',
  });
  return true;
}
