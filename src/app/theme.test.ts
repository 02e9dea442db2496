// The dark scheme's light-variant colour (subtle buttons, light badges, the result badges' icons)
// must stay a colour a person can read and tell apart: Mantine 9 makes it each colour's shade 0,
// near white.
import { DEFAULT_THEME, darken, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, theme } from './theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const dark = cssVariablesResolver(merged).dark;

/** How far a colour is from grey: its largest channel minus its smallest, 0-255. */
function chroma(hex: string): number {
  const channels = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return Math.max(...channels) - Math.min(...channels);
}

describe('the dark scheme light-variant colours', () => {
  const colours = Object.keys(merged.colors).filter((name) => name !== 'gray' && name !== 'dark');

  it.each(colours)('%s reads as its colour, at 4.5:1 on the page, a card and its own tint', (name) => {
    const shades = merged.colors[name]!;
    const text = dark[`--mantine-color-${name}-light-color`]!;
    // A colour, well away from the near white of shade 0 (the result icons were three white shapes).
    expect(chroma(text)).toBeGreaterThanOrEqual(2 * chroma(shades[0]));
    for (const background of [merged.colors.dark[7], merged.colors.dark[6], darken(shades[9], 0.5), darken(shades[9], 0.3)])
      expect(contrastRatio(text, background), `${name} on ${background}`).toBeGreaterThanOrEqual(4.5);
  });
});
