import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { readConnection, saveConnection } from '@/api/http/connection';
import { takeSignInTarget } from '@/lib/sign-in-target';
import { HOME_PATH } from './navigation';

const KEY_PARAM = 'api_key';
const SIGNED_IN_ID = 'signed-in-from-link';

/** The sign-in toast's words, and Remember on this device in one click. */
function RememberOffer({ apiKey }: { apiKey: string }) {
  const remember = () => {
    saveConnection({ baseUrl: readConnection().baseUrl, apiKey, remember: true });
    notifications.update({
      id: SIGNED_IN_ID,
      color: 'teal',
      title: 'Remembered on this device',
      message: 'Forget key in Settings, or Sign out, removes it.',
      autoClose: 4_000,
    });
  };
  return (
    <Group gap="xs" justify="space-between" wrap="wrap">
      {/* Phones: the button alone, so the toast stays within the header bar it lies over. */}
      <Text size="sm" visibleFrom="xs">
        Kept for this tab only.
      </Text>
      <Button size="compact-sm" variant="default" onClick={remember}>
        Remember on this device
      </Button>
    </Group>
  );
}
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
  // Until the person says otherwise, the key lives in this tab (and tabs opened from it) only.
  notifications.show({
    id: SIGNED_IN_ID,
    color: 'teal',
    title: 'Signed in with the key from the link',
    autoClose: 20_000,
    message: <RememberOffer apiKey={key} />,
  });
  return true;
}
