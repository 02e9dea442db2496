import { notifications } from '@mantine/notifications';
import { readConnection, saveConnection } from '@/api/connection';

const KEY_PARAM = 'api_key';

/**
 * Reads a sign-in link's key (`/settings#api_key=...`, a fragment no server ever sees), saves it as
 * Save without Remember would (this tab only) and strips it from the address bar at once, so it
 * stays out of history, bookmarks and screenshots. Returns whether a key was taken.
 */
export function applySignInLink(): boolean {
  const { pathname, search, hash } = window.location;
  if (!hash.startsWith('#')) return false;
  const params = new URLSearchParams(hash.slice(1));
  if (!params.has(KEY_PARAM)) return false;

  const key = params.get(KEY_PARAM)?.trim() ?? '';
  params.delete(KEY_PARAM);
  const rest = params.toString();
  window.history.replaceState(window.history.state, '', `${pathname}${search}${rest ? `#${rest}` : ''}`);
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
