import { Text } from '@mantine/core';
import { useMe } from '@/api/me';

/** Who the key belongs to and their role, where the server has accounts (ui-contract.md, Accounts). */
export default function MemberName({ drawer = false }: { drawer?: boolean }) {
  const { me } = useMe();
  if (!me) return null;
  return (
    <Text size="sm" visibleFrom={drawer ? undefined : 'sm'} px={drawer ? 'sm' : 0} style={{ whiteSpace: 'nowrap' }}>
      <Text span fw={600} inherit>
        {me.name}
      </Text>{' '}
      <Text span c="dimmed" inherit>
        ({me.role})
      </Text>
    </Text>
  );
}
