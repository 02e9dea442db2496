import { Text } from '@mantine/core';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { DateText } from './date-text';

/** The first element of the rendered tree as tag, sorted classes and style declarations. */
function shape(element: ReactElement) {
  const { container, unmount } = renderWithProviders(element);
  const node = container.querySelector('.mantine-Text-root');
  if (node === null) throw new Error('no text rendered');
  const result = {
    tag: node.tagName,
    classes: Array.from(node.classList).sort(),
    style: (node.getAttribute('style') ?? '')
      .split(';')
      .map((declaration) => declaration.trim())
      .filter(Boolean)
      .sort(),
    text: node.textContent,
  };
  unmount();
  return result;
}

describe('DateText markup', () => {
  it('is what <Text span size="sm" component="time"> renders', () => {
    const at = new Date('2025-03-14T09:05:00Z');
    const date = shape(<DateText date={at} />);
    const text = shape(
      <Text span size="sm" component="time" style={{ whiteSpace: 'nowrap' }}>
        {date.text}
      </Text>,
    );
    expect(date).toEqual(text);
  });

  it('is what <Text span size="sm" c="dimmed"> renders for no date', () => {
    expect(shape(<DateText date={null} />)).toEqual(
      shape(
        <Text span size="sm" c="dimmed">
          —
        </Text>,
      ),
    );
  });
});
