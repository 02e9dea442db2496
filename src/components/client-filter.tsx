// The Client filter of a list (Projects, Reports, Problems, Alerts; ui-contract.md, Overview): All clients,
// then the clients by name. Only where the deployment keeps clients; a client named in the address
// but gone (deleted, or past the first hundred) is offered by its id, so the filter in effect shows.
import { NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCapabilities } from '@/api/capabilities';
import { clientQueries } from '@/api/clients';

/** The name of the client `id` (0: none), once the deployment's clients are known. */
export function useClientName(id: number): string | undefined {
  const { capabilities } = useCapabilities();
  const clients = useQuery({ ...clientQueries.list(), enabled: id > 0 && capabilities?.clients === true });
  return clients.data?.items.find((client) => client.id === id)?.name;
}

/**
 * Whether a list that is short of room (the reports list's one line of fields) shows its Client
 * filter: where the deployment keeps clients and the person has any (or the list is filtered by one).
 * A deployment's clients are known after one request (the field comes then, where there are any).
 */
export function useClientFilterShown(value: number, withClients: boolean): boolean {
  const clients = useQuery({ ...clientQueries.list(), enabled: withClients });
  return withClients && (value > 0 || (clients.data?.items.length ?? 0) > 0);
}

/** `value`: the client's id, 0 for all. */
export function ClientFilter({
  value,
  onChange,
  className,
}: {
  value: number;
  onChange: (client: number) => void;
  className?: string;
}) {
  const { capabilities } = useCapabilities();
  const withClients = capabilities?.clients === true;
  const clients = useQuery({ ...clientQueries.list(), enabled: withClients });
  if (!withClients) return null;
  const options = (clients.data?.items ?? []).map((client) => ({ value: String(client.id), label: client.name }));
  if (value > 0 && !options.some((option) => option.value === String(value)))
    options.unshift({ value: String(value), label: clients.data ? `Client ${value} (not found)` : 'Loading…' });
  return (
    <NativeSelect
      label="Client"
      data={[{ value: '0', label: 'All clients' }, ...options]}
      value={String(value)}
      onChange={(event) => onChange(Number(event.currentTarget.value))}
      style={className ? undefined : { flex: '0 1 14rem' }}
      className={className}
    />
  );
}
