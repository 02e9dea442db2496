import { screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ConfirmDialog } from './confirm-dialog';
import type { ConfirmDialogProps } from './confirm-dialog';

function renderDialog(props: Partial<ConfirmDialogProps> = {}) {
  const onConfirm = vi.fn();
  const onCancel = vi.fn();
  const view = renderWithProviders(
    <ConfirmDialog
      opened
      title="Delete project shop.example?"
      onConfirm={onConfirm}
      onCancel={onCancel}
      pending={false}
      {...props}
    >
      All 3 reports of shop.example will be deleted too.
    </ConfirmDialog>,
  );
  return { ...view, onConfirm, onCancel, dialog: () => screen.getByRole('dialog') };
}

describe('ConfirmDialog', () => {
  it('is a dialog named by its title, with the message, and the focus on Cancel', async () => {
    const { dialog } = renderDialog();
    expect(screen.getByRole('dialog', { name: 'Delete project shop.example?' })).toBeInTheDocument();
    expect(dialog()).toHaveTextContent('All 3 reports of shop.example will be deleted too.');
    await waitFor(() => expect(within(dialog()).getByRole('button', { name: 'Cancel' })).toHaveFocus());
  });

  it('confirms once on Delete', async () => {
    const { user, onConfirm, onCancel, dialog } = renderDialog();
    await user.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onCancel).not.toHaveBeenCalled();
  });

  it('uses the confirm label it is given', () => {
    renderDialog({ confirmLabel: 'Delete project' });
    expect(screen.getByRole('button', { name: 'Delete project' })).toBeInTheDocument();
  });

  it.each([
    [
      'Cancel',
      async (u: ReturnType<typeof renderDialog>) =>
        u.user.click(screen.getByRole('button', { name: 'Cancel' })),
    ],
    ['Escape', async (u: ReturnType<typeof renderDialog>) => u.user.keyboard('{Escape}')],
    [
      'the close button',
      async (u: ReturnType<typeof renderDialog>) =>
        u.user.click(screen.getByRole('button', { name: 'Close' })),
    ],
    [
      'a click outside',
      async (u: ReturnType<typeof renderDialog>) => {
        // The overlay covers everything outside the dialog's content.
        const overlay = document.querySelector('.mantine-Modal-overlay');
        expect(overlay).not.toBeNull();
        await u.user.click(overlay as Element);
      },
    ],
  ])('cancels on %s without confirming', async (_way, act) => {
    const view = renderDialog();
    await act(view);
    expect(view.onCancel).toHaveBeenCalledTimes(1);
    expect(view.onConfirm).not.toHaveBeenCalled();
  });

  it('shows progress while pending, and neither confirms again nor lets itself be dismissed', async () => {
    const { user, onConfirm, onCancel, dialog } = renderDialog({ pending: true });
    const confirm = within(dialog()).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    expect(confirm).toHaveAttribute('data-loading');
    expect(within(dialog()).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    await user.click(confirm);
    await user.keyboard('{Escape}');
    await user.click(document.querySelector('.mantine-Modal-overlay') as Element);
    expect(onConfirm).not.toHaveBeenCalled();
    expect(onCancel).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('shows why the last attempt failed, and allows another', async () => {
    const { user, onConfirm, dialog } = renderDialog({
      error: 'The server answered 503 Service Unavailable.',
    });
    expect(within(dialog()).getByRole('alert')).toHaveTextContent(
      'The server answered 503 Service Unavailable.',
    );
    await user.click(within(dialog()).getByRole('button', { name: 'Delete' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('closes when its owner says so', async () => {
    function Owner() {
      const [opened, setOpened] = useState(true);
      return (
        <ConfirmDialog
          opened={opened}
          title="Delete it?"
          onConfirm={() => {}}
          onCancel={() => setOpened(false)}
          pending={false}
        >
          Gone for good.
        </ConfirmDialog>
      );
    }
    const { user } = renderWithProviders(<Owner />);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
