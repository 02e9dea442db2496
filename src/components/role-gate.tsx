// The one place where a role hides what it may not do (ui-contract.md, Accounts): the controls, or a
// line saying why they are not there.
import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { usePermission } from '@/api/me';
import type { Permission, Role } from '@/api/me';

/** "Your role (viewer) may not change reports." */
export function RoleNote({ role, what }: { role: Role; what: string }) {
  return (
    <Text size="sm" c="dimmed">
      Your role ({role}) may not {what}.
    </Text>
  );
}

export interface RoleGateProps {
  /** What the children need the role to allow (default: changing data). */
  need?: Permission;
  /** Ends the note shown in their place: "Your role (viewer) may not <what>."; none without it. */
  what?: string;
  children: ReactNode;
}

/** The children where the key's role allows `need`; else the note (or nothing while the role is asked). */
export function RoleGate({ need = 'change-data', what, children }: RoleGateProps) {
  const { allowed, role } = usePermission(need);
  if (allowed) return children;
  return role && what ? <RoleNote role={role} what={what} /> : null;
}
