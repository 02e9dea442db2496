import { createTheme, darken, localStorageColorSchemeManager, luminance } from '@mantine/core';
import type { CSSVariablesResolver, MantineColorsTuple } from '@mantine/core';

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

/** WCAG's contrast ratio of two colours. */
export function contrastRatio(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/**
 * Mantine 9's dark light-variant text is each colour's shade 0, near white: a subtle red button
 * (Revoke, Remove) read as any other, and the icons of Good, Decent and Bad (teal, orange, red) as
 * three white shapes. Each colour gets its most coloured shade of 4, 3 and 2 that keeps 4.5:1 on
 * the page, a card, and its own tint, hovered or not (Mantine's dark tints). Gray and dark stay grey.
 */
function darkLightColors(colors: Record<string, MantineColorsTuple>, page: string, card: string) {
  return Object.fromEntries(
    Object.entries(colors)
      .filter(([name]) => name !== 'gray' && name !== 'dark')
      .map(([name, shades]) => {
        const backgrounds = [page, card, darken(shades[9], 0.5), darken(shades[9], 0.3)];
        const shade = [4, 3, 2].find((at) => backgrounds.every((background) => contrastRatio(shades[at]!, background) >= 4.5)) ?? 0;
        return [`--mantine-color-${name}-light-color`, shades[shade]];
      }),
  );
}

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
    ...darkLightColors(t.colors, t.colors.dark[7], t.colors.dark[6]),
  },
});
