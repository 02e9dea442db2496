import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { ApiError } from '@/api/http/errors';
import { ConfirmedButton } from './confirmed-button';

function renderButton(action: { isPending: boolean; error: unknown } = { isPending: false, error: null }) {
  const reset = vi.fn();
  const onConfirm = vi.fn<(close: () => void) => void>();
  const view = renderWithProviders(
    <ConfirmedButton
      label="Revoke"
      name="Revoke link For Ana"
      title="Revoke the link “For Ana”?"
      message="Whoever has it sees “not found” from now on."
      action={{ ...action, reset }}
      onConfirm={onConfirm}
    />,
  );
  const button = screen.getByRole('button', { name: 'Revoke link For Ana' });
  return { ...view, button, reset, onConfirm };
}

describe('ConfirmedButton', () => {
  it('asks first: Cancel sends nothing, forgets a failure and puts the focus back on the button', async () => {
    const { user, button, reset, onConfirm } = renderButton();
    // A click that does not focus the button, as in Safari: the focus still comes back to it.
    fireEvent.click(button);
    expect(button).not.toHaveFocus();
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the link “For Ana”?' });
    expect(dialog).toHaveTextContent('Whoever has it sees “not found” from now on.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onConfirm).not.toHaveBeenCalled();
    expect(reset).toHaveBeenCalledTimes(1);
    expect(button).toHaveFocus();
  });

  it('confirmed, starts the action, and the dialog stays until the action closes it', async () => {
    const { user, button, onConfirm } = renderButton();
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the link “For Ana”?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    const [close] = onConfirm.mock.calls[0] ?? [];
    close?.();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('says why the action failed, in the dialog', async () => {
    const error = new ApiError({ kind: 'server', status: 500, message: 'The service failed (500).' });
    const { user, button } = renderButton({ isPending: false, error });
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Revoke the link “For Ana”?' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The service failed (500).');
  });
});
