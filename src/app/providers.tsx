import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { followHeldRows } from '@/api/hidden-rows';
import { clearOnConnectionChange } from '@/api/query-client';
import { DateTooltips } from '@/components/date-tooltips';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off Mantine's transitions and portals. */
  env?: 'default' | 'test';
}

/** Theme, colour scheme and data cache, and the dates' tooltip; the router goes inside. */
export function AppProviders({ queryClient, children, env = 'default' }: AppProvidersProps) {
  // A new base URL or key drops every cached answer (also when changed in another tab).
  useEffect(() => clearOnConnectionChange(queryClient), [queryClient]);
  // The cached lists leave out the rows of the deletes held for Undo, and have them back on Undo.
  useEffect(() => followHeldRows(queryClient), [queryClient]);
  // Printed pages are light whatever the scheme on screen: loaded after the page (nobody prints a
  // page before it is there), out of the entry chunk.
  useEffect(() => {
    let stop: (() => void) | undefined;
    let gone = false;
    void import('./print-scheme').then(({ lightWhilePrinting }) => {
      if (!gone) stop = lightWhilePrinting();
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, []);
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
      env={env}
    >
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      {/* The exact moment of whichever date is hovered or focused (DateText), one for the page. */}
      <DateTooltips />
    </MantineProvider>
  );
}
