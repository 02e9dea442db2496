import { Badge } from '@mantine/core';
import { IconWorld } from '@tabler/icons-react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { BadgeMarkup } from './badge-markup';
import type { BadgeLook } from './badge-markup';

/** The badge's element tree as tags, sorted classes, attributes and style declarations. */
function shape(element: ReactElement): unknown {
  const { container, unmount } = renderWithProviders(element);
  const root = container.querySelector('.mantine-Badge-root');
  if (root === null) throw new Error('no badge rendered');
  const describe = (node: Element): unknown => ({
    tag: node.tagName,
    attributes: Array.from(node.attributes)
      .filter((a) => a.name !== 'class' && a.name !== 'style')
      .map((a) => `${a.name}=${a.value}`)
      .sort(),
    classes: Array.from(node.classList).sort(),
    style: (node.getAttribute('style') ?? '')
      .split(';')
      .map((declaration) => declaration.trim())
      .filter(Boolean)
      .sort(),
    children: Array.from(node.children).map(describe),
  });
  const result = describe(root);
  unmount();
  return result;
}

describe('BadgeMarkup', () => {
  it.each<[string, BadgeLook, Record<string, string>]>([
    [
      'light teal, text colour kept',
      { variant: 'light', color: 'teal', radius: 'sm' },
      { c: 'var(--mantine-color-text)' },
    ],
    ['light orange', { variant: 'light', color: 'orange', radius: 'sm' }, {}],
    ['light red', { variant: 'light', color: 'red', radius: 'sm' }, {}],
    ['default', { variant: 'default', radius: 'sm' }, {}],
  ])('renders what Mantine Badge renders: %s', (_name, look, extra) => {
    const icon = <IconWorld size={12} aria-hidden />;
    const style = { textTransform: 'none' as const, ...(extra.c ? { color: extra.c } : {}) };
    const mantine = shape(
      <Badge
        variant={look.variant}
        color={look.color}
        radius={look.radius}
        tt="none"
        c={extra.c}
        leftSection={icon}
      >
        Word
      </Badge>,
    );
    const markup = shape(
      <BadgeMarkup look={look} style={style} leftSection={icon}>
        Word
      </BadgeMarkup>,
    );
    expect(markup).toEqual(mantine);
  });

  it('renders what Mantine Badge renders without a section', () => {
    expect(
      shape(
        <BadgeMarkup look={{ variant: 'default', radius: 'sm' }} style={{ textTransform: 'none' }}>
          Word
        </BadgeMarkup>,
      ),
    ).toEqual(
      shape(
        <Badge variant="default" radius="sm" tt="none">
          Word
        </Badge>,
      ),
    );
  });
});
