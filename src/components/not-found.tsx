import '@mantine/core/styles/EmptyState.css';
import { Anchor, EmptyState, Stack, Title } from '@mantine/core';
import { IconFileOff } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export interface NotFoundProps {
  /** The page's heading: "Page not found", "Report not found", "Project not found". */
  heading: string;
  /** What is not there, e.g. "There is no report here". */
  title: string;
  description: ReactNode;
  /** Where to go instead. */
  back: { to: string; label: string };
}

/** What an unknown address, report or project shows: one look for the three. */
export function NotFound({ heading, title, description, back }: NotFoundProps) {
  return (
    <Stack gap="md">
      <Title order={1}>{heading}</Title>
      <EmptyState
        title={title}
        description={description}
        icon={<IconFileOff size={28} aria-hidden />}
        withIndicatorBackground
        py="xl"
      >
        <EmptyState.Actions>
          <Anchor component={Link} to={back.to} fw={600}>
            {back.label}
          </Anchor>
        </EmptyState.Actions>
      </EmptyState>
    </Stack>
  );
}
