import { Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '@/api/errors';
import { useDeleteProject } from '@/api/projects-mutations';
import type { Project } from '@/contract/domain';
import { ConfirmDialog } from '@/components/confirm-dialog';

function reportsOf(project: Project): string {
  if (project.reports === null) return 'All of its reports';
  if (project.reports === 1) return 'Its 1 report';
  return `All ${project.reports} of its reports`;
}

function goneText(project: Project): string {
  if (project.reports === null) return `${project.name} and all of its reports were deleted.`;
  return `${project.name} and its ${project.reports} ${project.reports === 1 ? 'report were' : 'reports were'} deleted.`;
}

const UNEXPECTED = 'The project could not be deleted because of an unexpected error.';

export interface DeleteProjectDialogProps {
  /** The project asked about; kept while the dialog closes so its text does not vanish mid-animation. */
  project: Project | null;
  opened: boolean;
  onClose: () => void;
  /** After a successful delete, when the row (and the button that opened the dialog) is gone. */
  onDeleted?: (name: string) => void;
}

/** Asks before deleting a project with all its reports; the outcome ends in a notification. */
export function DeleteProjectDialog({ project, opened, onClose, onDeleted }: DeleteProjectDialogProps) {
  const deletion = useDeleteProject();
  // An error belongs to the attempt on this project, not to one made earlier on another.
  const error =
    deletion.isError && deletion.variables === project?.name ? errorMessage(deletion.error, UNEXPECTED) : undefined;

  const close = () => {
    deletion.reset();
    onClose();
  };

  const confirm = () => {
    if (project === null) return;
    deletion.mutate(project.name, {
      onSuccess: () => {
        notifications.show({ color: 'teal', title: 'Project deleted', message: goneText(project) });
        close();
        onDeleted?.(project.name);
      },
      onError: (failure) => {
        notifications.show({
          color: 'red',
          title: `Project ${project.name} was not deleted`,
          message: errorMessage(failure, UNEXPECTED),
        });
      },
    });
  };

  return (
    <ConfirmDialog
      opened={opened && project !== null}
      title={project ? `Delete project ${project.name}?` : 'Delete project?'}
      onConfirm={confirm}
      onCancel={close}
      pending={deletion.isPending}
      error={error}
    >
      {project && (
        <Text size="sm">
          {reportsOf(project)} will be deleted with the project <strong>{project.name}</strong>. This cannot
          be undone.
        </Text>
      )}
    </ConfirmDialog>
  );
}
