import {
  IconAlertTriangle,
  IconCircleCheck,
  IconCircleX,
  IconHelpCircle,
  IconKey,
  IconLock,
  IconWorld,
} from '@tabler/icons-react';
import type { Icon } from '@tabler/icons-react';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ruleDeclarations } from '../../test/css-rules';
import { BadgeIcon } from './badge-icon';
import type { BadgeIconName } from './badge-icon';

const COMPONENTS: Record<BadgeIconName, Icon> = {
  world: IconWorld,
  lock: IconLock,
  key: IconKey,
  'circle-check': IconCircleCheck,
  'alert-triangle': IconAlertTriangle,
  'circle-x': IconCircleX,
  'help-circle': IconHelpCircle,
};

/** The svg of the icon's mask in badge-icon.module.css. */
function maskSvg(name: BadgeIconName): string {
  const declarations = ruleDeclarations('src/components/badge-icon.module.css', `.${name}`);
  const mask = declarations.find((d) => d.startsWith('mask-image: '));
  const svg = /^mask-image: url\("data:image\/svg\+xml,(<svg .*<\/svg>)"\)$/.exec(mask ?? '')?.[1];
  if (svg === undefined) throw new Error(`No svg mask for ${name}: ${declarations.join('; ')}`);
  return svg;
}

describe('BadgeIcon', () => {
  it.each(Object.keys(COMPONENTS) as BadgeIconName[])('draws the Tabler icon as Tabler does: %s', (name) => {
    const Component = COMPONENTS[name];
    const { container } = render(<Component />);
    const tabler = container.querySelector('svg');
    const paths = Array.from(container.querySelectorAll('path'), (path) => path.getAttribute('d'));
    const svg = new DOMParser().parseFromString(maskSvg(name), 'image/svg+xml').documentElement;
    expect(Array.from(svg.querySelectorAll('path'), (path) => path.getAttribute('d'))).toEqual(paths);
    for (const attribute of ['viewBox', 'fill', 'stroke-width', 'stroke-linecap', 'stroke-linejoin'])
      expect(svg.getAttribute(attribute), attribute).toBe(tabler?.getAttribute(attribute));
  });

  it('is one hidden element with the class of its icon', () => {
    const { container } = render(<BadgeIcon name="world" />);
    const icon = container.firstElementChild as HTMLElement;
    expect(icon.tagName).toBe('SPAN');
    expect(icon).toHaveAttribute('aria-hidden', 'true');
    expect(icon.childElementCount).toBe(0);
    expect(Array.from(icon.classList)).toEqual(['icon', 'world']);
  });
});
