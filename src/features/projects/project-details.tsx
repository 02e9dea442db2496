// A project's label and client on its page (extensions `project_labels`, `clients`): shown under the
// host name, with **Edit label** (and client) where the deployment keeps them. The form loads on first use.
import { Badge, Button, Group, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useCapabilities } from '@/api/capabilities';
import { clientQueries } from '@/api/clients';
import { RoleGate } from '@/components/role-gate';

const loadForm = () => import('./project-details-form');
const ProjectDetailsForm = lazy(() => loadForm().then((m) => ({ default: m.ProjectDetailsForm })));

export function ProjectDetails({ name }: { name: string }) {
  const { capabilities } = useCapabilities();
  const labels = capabilities?.project_labels === true;
  const project = useQuery({ ...clientQueries.project(name), enabled: labels });
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  if (!labels || !project.data) return null;
  const { label, client } = project.data;
  return (
    <Group gap="xs" wrap="wrap" mt={4}>
      {label && (
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {label}
        </Text>
      )}
      {client && (
        <Badge
          variant="light"
          tt="none"
          c="var(--mantine-color-text)"
          component={Link}
          to={`/projects?client=${client.id}`}
          style={{ cursor: 'pointer' }}
        >
          Client: {client.name}
        </Badge>
      )}
      <RoleGate>
        <Button
          ref={editButton}
          size="compact-sm"
          variant="subtle"
          leftSection={<IconPencil size={14} aria-hidden />}
          onPointerEnter={() => void loadForm()}
          onFocus={() => void loadForm()}
          onClick={() => setEditing(true)}
        >
          {capabilities?.clients ? 'Edit label and client' : 'Edit label'}
        </Button>
      </RoleGate>
      {editing && (
        <Suspense fallback={null}>
          <ProjectDetailsForm
            project={project.data}
            withClient={capabilities?.clients === true}
            onClose={() => {
              setEditing(false);
              editButton.current?.focus();
            }}
          />
        </Suspense>
      )}
    </Group>
  );
}
