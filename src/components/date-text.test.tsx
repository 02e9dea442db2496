import { Text } from '@mantine/core';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { ruleDeclarations, styleDeclarations } from '../../test/css-rules';
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
    style: styleDeclarations(node.getAttribute('style')),
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
    // Text's inline style is the class `time` instead: the rule declares exactly that style.
    expect(date).toEqual({ ...text, classes: [...text.classes, 'time'].sort(), style: [] });
    expect(ruleDeclarations('src/components/date-text.module.css', 'time.time')).toEqual(text.style);
  });

  it('is what <Text span size="sm" c="dimmed"> renders for no date', () => {
    const text = shape(
      <Text span size="sm" c="dimmed">
        —
      </Text>,
    );
    expect(shape(<DateText date={null} />)).toEqual({ ...text, classes: [...text.classes, 'none'].sort(), style: [] });
    expect(ruleDeclarations('src/components/date-text.module.css', 'span.none')).toEqual(text.style);
  });
});
