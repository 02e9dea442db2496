import { Anchor } from '@mantine/core';
import { screen } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { ruleDeclarations, styleDeclarations } from '../../test/css-rules';
import { renderWithProviders } from '../../test/render';
import { useRouterLinkClicks } from '@/lib/router-link-clicks';
import { AnchorLink } from './anchor-link';

/** The link as tag, sorted attributes, classes and style declarations. */
function shape(element: ReactElement) {
  const { container, unmount } = renderWithProviders(element);
  const link = container.querySelector('a');
  if (link === null) throw new Error('no link rendered');
  const result = {
    attributes: Array.from(link.attributes)
      // Link marks itself for react-router's framework mode (route discovery), which this app is not.
      .filter((a) => a.name !== 'class' && a.name !== 'style' && a.name !== 'data-discover')
      .map((a) => `${a.name}=${a.value}`)
      .sort(),
    classes: Array.from(link.classList).sort(),
    style: styleDeclarations(link.getAttribute('style')),
    text: link.textContent,
  };
  unmount();
  return result;
}

/**
 * AnchorLink's shape is Anchor's, with Anchor's inline style moved into the look's class: the
 * class is there, and the CSS file's rule for it declares exactly what Anchor sets inline.
 */
function expectSameAsAnchor(link: ReactElement, look: string, anchor: ReactElement) {
  const ours = shape(link);
  const mantine = shape(anchor);
  expect(ours.classes).toContain(look);
  expect({ ...ours, classes: ours.classes.filter((c) => c !== look) }).toEqual({ ...mantine, style: [] });
  expect(ruleDeclarations('src/components/anchor-link.module.css', `a.${look}`)).toEqual(mantine.style);
}

function Delegating({ children }: { children: ReactNode }) {
  const onClick = useRouterLinkClicks();
  return <div onClick={onClick}>{children}</div>;
}

describe('AnchorLink', () => {
  it('renders what <Anchor component={Link} size="sm"> renders', () => {
    expectSameAsAnchor(
      <AnchorLink href="/reports/7">A report</AnchorLink>,
      'plain',
      <Anchor component={Link} to="/reports/7" size="sm">
        A report
      </Anchor>,
    );
  });

  it('renders fw={500} for strong', () => {
    expectSameAsAnchor(
      <AnchorLink href="/reports/7" look="strong">
        A report
      </AnchorLink>,
      'strong',
      <Anchor component={Link} to="/reports/7" size="sm" fw={500}>
        A report
      </Anchor>,
    );
  });

  it('renders c="dimmed" for dimmed, with a title', () => {
    expectSameAsAnchor(
      <AnchorLink href="/reports?project=a.example" look="dimmed" title="Only a.example">
        a.example
      </AnchorLink>,
      'dimmed',
      <Anchor component={Link} to="/reports?project=a.example" size="sm" c="dimmed" title="Only a.example">
        a.example
      </Anchor>,
    );
  });

  it('navigates in the app inside a container with useRouterLinkClicks', async () => {
    const { user, router } = renderWithProviders(
      <Delegating>
        <AnchorLink href="/reports/7?tab=results#checks">A report</AnchorLink>
      </Delegating>,
    );
    await user.click(screen.getByRole('link', { name: 'A report' }));
    expect(router.state.location).toMatchObject({
      pathname: '/reports/7',
      search: '?tab=results',
      hash: '#checks',
    });
  });
});
