// A Settings list in each of its states: loading, failed with Retry (which then shows the list),
// empty, and the list itself.
import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/http/errors';
import { renderWithProviders } from '../../../test/render';
import { QueryStates } from './query-states';

/** Answers come from `answers`, one per fetch: a list of names, or an error to throw. */
function Clients({ answers }: { answers: (string[] | Error | Promise<never>)[] }) {
  const query = useQuery({
    queryKey: ['query-states-test'],
    queryFn: async () => {
      const answer = answers.shift() ?? [];
      if (answer instanceof Error) throw answer;
      return answer;
    },
  });
  return (
    <QueryStates query={query} what="clients" isEmpty={(names) => names.length === 0} empty="No clients yet.">
      {(names) => (
        <ul aria-label="Clients">
          {names.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      )}
    </QueryStates>
  );
}

const unavailable = new ApiError({ status: 503, kind: 'server', message: 'The server answered 503 Service Unavailable.' });

describe('QueryStates', () => {
  it('says what is loading until the answer comes', () => {
    renderWithProviders(<Clients answers={[new Promise<never>(() => {})]} />);
    expect(screen.getByText('Loading the clients…')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Clients' })).not.toBeInTheDocument();
  });

  it('shows a failure with its reason, and the list once Retry succeeds', async () => {
    const { user } = renderWithProviders(<Clients answers={[unavailable, ['Acme', 'Globex']]} />);

    expect(await screen.findByText('The clients could not be loaded.')).toBeInTheDocument();
    expect(screen.getByText('The server answered 503 Service Unavailable.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry' }));

    const list = await screen.findByRole('list', { name: 'Clients' });
    expect(list).toHaveTextContent('AcmeGlobex');
    expect(screen.queryByText('The clients could not be loaded.')).not.toBeInTheDocument();
  });

  it('says there is nothing instead of an empty list', async () => {
    renderWithProviders(<Clients answers={[[]]} />);
    expect(await screen.findByText('No clients yet.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Clients' })).not.toBeInTheDocument();
  });
});
