// Add many's preview and its batch form: loaded once a preview is asked for, so that the page's
// first visit carries neither (nor react-hook-form) and stays within the size budget.
import { Paper, Stack, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { BatchForm } from './batch-form';
import type { BatchFormProps } from './batch-form';
import type { NearChoice } from './classify';
import { ImportPreview } from './import-preview';
import classes from './import-page.module.css';

export function PreviewSection({ rows, onStart }: Omit<BatchFormProps, 'choices'>) {
  // What to do with each line that is probably the same as another; a new preview starts afresh.
  const [choices, setChoices] = useState<ReadonlyMap<number, NearChoice>>(() => new Map());
  const choose = (line: number, choice: NearChoice) =>
    setChoices((previous) => new Map(previous).set(line, choice));
  // It appears below the sources, out of sight on most screens: brought into view, with the focus on
  // its heading, so that reading on (or a screen reader) starts at what was asked for.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const target = heading.current;
    if (!target) return;
    target.focus({ preventScroll: true });
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? true;
    target.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
  }, []);
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label="Preview">
      <Stack gap="md">
        <Title order={2} size="h3" ref={heading} tabIndex={-1} className={classes.heading}>
          Preview
        </Title>
        <ImportPreview rows={rows} choices={choices} onChoose={choose} />
        <BatchForm rows={rows} choices={choices} onStart={onStart} />
      </Stack>
    </Paper>
  );
}
