import { Anchor } from '@mantine/core';
import type { ReactElement } from 'react';
import { Link } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { AnchorLink } from './anchor-link';

/** The link as tag, sorted attributes, classes and style declarations. */
function shape(element: ReactElement) {
  const { container, unmount } = renderWithProviders(element);
  const link = container.querySelector('a');
  if (link === null) throw new Error('no link rendered');
  const result = {
    attributes: Array.from(link.attributes)
      .filter((a) => a.name !== 'class' && a.name !== 'style')
      .map((a) => `${a.name}=${a.value}`)
      .sort(),
    classes: Array.from(link.classList).sort(),
    style: (link.getAttribute('style') ?? '')
      .split(';')
      .map((declaration) => declaration.trim())
      .filter(Boolean)
      .sort(),
    text: link.textContent,
  };
  unmount();
  return result;
}

describe('AnchorLink', () => {
  it('renders what <Anchor component={Link} size="sm"> renders', () => {
    expect(shape(<AnchorLink to="/reports/7">A report</AnchorLink>)).toEqual(
      shape(
        <Anchor component={Link} to="/reports/7" size="sm">
          A report
        </Anchor>,
      ),
    );
  });

  it('renders fw={500} for strong', () => {
    expect(
      shape(
        <AnchorLink to="/reports/7" look="strong">
          A report
        </AnchorLink>,
      ),
    ).toEqual(
      shape(
        <Anchor component={Link} to="/reports/7" size="sm" fw={500}>
          A report
        </Anchor>,
      ),
    );
  });

  it('renders c="dimmed" for dimmed, with a title', () => {
    expect(
      shape(
        <AnchorLink to="/reports?project=a.example" look="dimmed" title="Only a.example">
          a.example
        </AnchorLink>,
      ),
    ).toEqual(
      shape(
        <Anchor component={Link} to="/reports?project=a.example" size="sm" c="dimmed" title="Only a.example">
          a.example
        </Anchor>,
      ),
    );
  });

  it('navigates like a Link', async () => {
    const { user, router } = renderWithProviders(<AnchorLink to="/reports/7">A report</AnchorLink>);
    await user.click(document.querySelector('a') as HTMLAnchorElement);
    expect(router.state.location.pathname).toBe('/reports/7');
  });
});
