import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { API_ERROR_TEXT } from '@/api/errors';

export const SETTINGS_PATH = '/settings';

/** "The API key is missing or invalid." with the way to fix it: a link to Settings. */
export function ApiKeyMessage({ withText = true }: { withText?: boolean }) {
  return (
    <Text size="sm" component="span">
      {withText && <>{API_ERROR_TEXT.unauthenticated} </>}
      <Anchor component={Link} to={SETTINGS_PATH} size="sm" fw={600}>
        Enter a key in Settings
      </Anchor>
    </Text>
  );
}
