import '@mantine/core/styles/Input.css';
import { Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Project } from '@/contract/domain';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { deleteWithUndo } from '@/components/undoable-delete';

/** A project holding more reports than this asks for its name to be typed before Delete. */
export const TYPE_NAME_ABOVE = 10;

function reportsOf(project: Project): string {
  if (project.reports === null) return 'All of its reports';
  if (project.reports === 1) return 'Its 1 report';
  return `All ${project.reports} of its reports`;
}

function goneText(project: Project): string {
  if (project.reports === null) return `${project.name} and all of its reports were deleted.`;
  return `${project.name} and its ${project.reports} ${project.reports === 1 ? 'report were' : 'reports were'} deleted.`;
}

export interface DeleteProjectDialogProps {
  /** The project asked about; kept while the dialog closes so its text does not vanish mid-animation. */
  project: Project | null;
  opened: boolean;
  onClose: () => void;
  /** Once the delete is confirmed (and held for Undo), when the row and its button are hidden. */
  onDeleted?: (name: string) => void;
  /** Where Undo takes the person back to, when the delete took them away (the project's page). */
  backTo?: string;
}

/** Asks before deleting a project with all its reports; the delete is held for Undo, then sent. */
export function DeleteProjectDialog({ project, opened, onClose, onDeleted, backTo }: DeleteProjectDialogProps) {
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const mustType = project !== null && (project.reports ?? 0) > TYPE_NAME_ABOVE;
  const nameTyped = !mustType || typed === project.name;

  const close = () => {
    setTyped('');
    onClose();
  };

  const confirm = () => {
    if (project === null || !nameTyped) return;
    deleteWithUndo({
      queryClient,
      targets: [{ kind: 'project', name: project.name, reports: project.reports }],
      title: 'Project deleted',
      message: goneText(project),
      backTo,
      failedTitle: () => `Project ${project.name} was not deleted`,
    });
    close();
    onDeleted?.(project.name);
  };

  return (
    <ConfirmDialog
      opened={opened && project !== null}
      title={project ? `Delete project ${project.name}?` : 'Delete project?'}
      onConfirm={confirm}
      onCancel={close}
      pending={false}
      confirmDisabled={!nameTyped}
    >
      {project && (
        <Stack gap="sm">
          <Text size="sm">
            {reportsOf(project)} will be deleted with the project <strong>{project.name}</strong>. You can undo
            this for a few seconds.
          </Text>
          {mustType && (
            <TextInput
              label={`Type ${project.name} to confirm`}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              spellCheck={false}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && nameTyped) confirm();
              }}
            />
          )}
        </Stack>
      )}
    </ConfirmDialog>
  );
}
