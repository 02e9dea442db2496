import { Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useId, useRef } from 'react';
import type { ReactNode, RefObject } from 'react';
import classes from './settings-section.module.css';

/** The sections after the connection form, in the page's order, with their headings. */
export const SECTIONS = {
  clients: 'Clients',
  webhooks: 'Webhooks',
  digests: 'Digests',
  'share-links': 'Share links',
  branding: 'Branding',
  members: 'Members',
  'audit-log': 'Audit log',
} as const;
export type SectionId = keyof typeof SECTIONS;

/** The element id of a section of Settings, where its link in the page's contents leads. */
export const sectionAnchor = (id: SectionId) => `settings-${id}`;

/**
 * One section of Settings (Clients, Webhooks, Members…): a bordered region named by its heading,
 * a line on what it is for, then its content.
 */
export function SettingsSection({ section, description, children }: { section: SectionId; description: string; children: ReactNode }) {
  const headingId = useId();
  const ref = useRef<HTMLElement>(null);
  useInViewOnArrival(ref, section);
  return (
    <Paper
      ref={ref}
      withBorder
      p="lg"
      radius="md"
      component="section"
      id={sectionAnchor(section)}
      aria-labelledby={headingId}
      className={classes.section}
    >
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id={headingId}>
            {SECTIONS[section]}
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            {description}
          </Text>
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * Opened at its address (a reload, a link to /settings#settings-webhooks), a section arrives after the
 * browser looked for it, and the sections above it (and their lists) after it: it brings itself into
 * view, and again each time the page's height changes, until the person scrolls, types or taps.
 */
function useInViewOnArrival(ref: RefObject<HTMLElement | null>, section: SectionId) {
  useEffect(() => {
    const element = ref.current;
    if (element === null || window.location.hash !== `#${sectionAnchor(section)}`) return;
    const bring = () => element.scrollIntoView();
    bring();
    const observer = new ResizeObserver(bring);
    observer.observe(document.body);
    const stop = () => {
      observer.disconnect();
      for (const type of PERSON_INPUT) window.removeEventListener(type, stop, true);
    };
    for (const type of PERSON_INPUT) window.addEventListener(type, stop, { capture: true, passive: true });
    return stop;
  }, [ref, section]);
}

const PERSON_INPUT = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
