import { createTheme, localStorageColorSchemeManager } from '@mantine/core';
import type { CSSVariablesResolver } from '@mantine/core';

// public/color-scheme.js reads the same key before the first paint; keep the two in step.
export const COLOR_SCHEME_STORAGE_KEY = 'webpage-reports-color-scheme';

export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });

export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 6 under white text (3.6:1) misses WCAG AA; shade 8 reaches 5:1 in both schemes.
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  cursorType: 'pointer',
  headings: { fontWeight: '650' },
  components: {
    // A coloured title on its own tinted background misses 4.5:1 for several colours (teal, orange);
    // the icon, border and background carry the colour, the words stay in the text colour.
    Alert: { styles: { title: { color: 'var(--mantine-color-text)' } } },
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      // Mantine greys the description with a fixed shade below 4.5:1; use the (darkened) dimmed colour.
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    },
  },
});

// Mantine's dimmed text, error text and light-scheme links sit below 4.5:1 on their backgrounds.
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    '--mantine-color-anchor': t.colors.blue[8],
    '--mantine-color-error': t.colors.red[9],
  },
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1],
    '--mantine-color-anchor': t.colors.blue[4],
    '--mantine-color-error': t.colors.red[4],
    // Mantine's dark light-variant text is shade 0, near white: a subtle red button (Revoke, Remove)
    // read as any other. Shade 4 keeps it red: 6.7:1 on the page, 5.5:1 on the red tint.
    '--mantine-color-red-light-color': t.colors.red[4],
  },
});
