import { Badge } from '@mantine/core';
import { IconWorld } from '@tabler/icons-react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { ruleDeclarations, styleDeclarations } from '../../test/css-rules';
import { renderWithProviders } from '../../test/render';
import { BADGE_LOOKS, BadgeMarkup } from './badge-markup';
import type { BadgeLook } from './badge-markup';

interface Shape {
  tag: string;
  attributes: string[];
  classes: string[];
  style: string[];
  children: Shape[];
}

/** The badge's element tree as tags, sorted classes, attributes and style declarations. */
function shape(element: ReactElement): Shape {
  const { container, unmount } = renderWithProviders(element);
  const root = container.querySelector('.mantine-Badge-root');
  if (root === null) throw new Error('no badge rendered');
  const describe = (node: Element): Shape => ({
    tag: node.tagName,
    attributes: Array.from(node.attributes)
      .filter((a) => a.name !== 'class' && a.name !== 'style')
      .map((a) => `${a.name}=${a.value}`)
      .sort(),
    classes: Array.from(node.classList).sort(),
    style: styleDeclarations(node.getAttribute('style')),
    children: Array.from(node.children).map(describe),
  });
  const result = describe(root);
  unmount();
  return result;
}

describe('BadgeMarkup', () => {
  it.each(Object.keys(BADGE_LOOKS) as BadgeLook[])('renders what Mantine Badge renders: %s', (look) => {
    const icon = <IconWorld size={12} aria-hidden />;
    const mantine = shape(
      <Badge {...BADGE_LOOKS[look]} leftSection={icon}>
        Word
      </Badge>,
    );
    const ours = shape(
      <BadgeMarkup look={look} leftSection={icon}>
        Word
      </BadgeMarkup>,
    );
    // Badge's inline style is the look's class instead: the rule declares exactly that style.
    expect(ours.classes).toContain(look);
    expect({ ...ours, classes: ours.classes.filter((c) => c !== look) }).toEqual({ ...mantine, style: [] });
    expect(ruleDeclarations('src/components/badge-markup.module.css', `.${look}[data-variant]`)).toEqual(
      mantine.style,
    );
  });

  it('renders what Mantine Badge renders without a section', () => {
    const ours = shape(<BadgeMarkup look="neutral">Word</BadgeMarkup>);
    const mantine = shape(<Badge {...BADGE_LOOKS.neutral}>Word</Badge>);
    expect({ ...ours, classes: ours.classes.filter((c) => c !== 'neutral') }).toEqual({ ...mantine, style: [] });
  });
});
