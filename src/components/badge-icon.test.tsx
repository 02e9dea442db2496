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
import { BADGE_ICON_PATHS, BadgeIcon, badgeIconUrl } from './badge-icon';
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

describe('BadgeIcon', () => {
  it.each(Object.keys(COMPONENTS) as BadgeIconName[])('draws the paths of the Tabler icon: %s', (name) => {
    const Component = COMPONENTS[name];
    const { container } = render(<Component />);
    const paths = Array.from(container.querySelectorAll('path'), (path) => path.getAttribute('d'));
    expect(BADGE_ICON_PATHS[name]).toEqual(paths);
    const svg = decodeURIComponent(badgeIconUrl(name).replace(/^url\("data:image\/svg\+xml,|"\)$/g, ''));
    for (const d of paths) expect(svg).toContain(`<path d="${d}"/>`);
  });

  it('is one hidden element with the icon as its mask and the colour given', () => {
    const { container } = render(<BadgeIcon name="world" color="var(--mantine-color-teal-light-color)" />);
    const icon = container.firstElementChild as HTMLElement;
    expect(icon.tagName).toBe('SPAN');
    expect(icon).toHaveAttribute('aria-hidden', 'true');
    expect(icon.childElementCount).toBe(0);
    expect(icon.style.getPropertyValue('--badge-icon')).toBe(badgeIconUrl('world'));
    expect(icon.style.color).toBe('var(--mantine-color-teal-light-color)');
  });
});
