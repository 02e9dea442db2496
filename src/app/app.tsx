import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { RouterProvider } from 'react-router-dom';
import { AppProviders } from './providers';
import { preloadLinkedPages } from './router';
import type { AppRouter } from './router';

export function App({ queryClient, router }: { queryClient: QueryClient; router: AppRouter }) {
  useEffect(() => preloadLinkedPages(router), [router]);
  return (
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} useTransitions={false} />
    </AppProviders>
  );
}
