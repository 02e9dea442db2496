import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Kbd.css';
import { Kbd, Modal, Text } from '@mantine/core';
import { DataTable } from '@/components/data-table';

export type ListNoun = 'report' | 'project';

export interface Shortcut {
  keys: string;
  does: string;
}

function listShortcuts(noun: ListNoun, withPick: boolean): Shortcut[] {
  return [
    { keys: '/', does: 'Focus Search' },
    { keys: 'j', does: `Move to the next ${noun}` },
    { keys: 'k', does: `Move to the previous ${noun}` },
    { keys: 'Enter', does: `Open the ${noun} you are on` },
    ...(withPick ? [{ keys: 'x', does: `Select the ${noun} you are on, or unselect it` }] : []),
    { keys: 'n', does: 'New report' },
    { keys: '?', does: 'Show these shortcuts' },
  ];
}

/** A dialog **Keyboard shortcuts** listing `shortcuts`, which work anywhere on `where` but in a field. */
export function KeyboardShortcutsDialog({
  opened,
  onClose,
  shortcuts,
  where,
  returnFocus = true,
}: {
  opened: boolean;
  onClose: () => void;
  shortcuts: Shortcut[];
  /** Where they work: `the list`, `this report`. */
  where: string;
  /** Mantine puts the focus back where it was when the dialog opened; false where the page does it. */
  returnFocus?: boolean;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Keyboard shortcuts"
      centered
      returnFocus={returnFocus}
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700 } }}
    >
      <DataTable aria-label="Keyboard shortcuts">
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">What it does</th>
          </tr>
        </thead>
        <tbody>
          {shortcuts.map((shortcut) => (
            <tr key={shortcut.keys}>
              <td>
                <Kbd>{shortcut.keys}</Kbd>
              </td>
              <td>{shortcut.does}</td>
            </tr>
          ))}
        </tbody>
      </DataTable>
      <Text size="sm" c="dimmed" mt="sm">
        They work anywhere on {where}, except while typing in a field.
      </Text>
    </Modal>
  );
}

/** The list's keyboard shortcuts (`?`); list-keys.tsx handles them. */
export function ShortcutsDialog({
  opened,
  onClose,
  noun,
  withPick,
}: {
  opened: boolean;
  onClose: () => void;
  noun: ListNoun;
  withPick: boolean;
}) {
  return (
    <KeyboardShortcutsDialog
      opened={opened}
      onClose={onClose}
      shortcuts={listShortcuts(noun, withPick)}
      where="the list"
      // ListKeys puts the focus back where `?` was pressed (a row is not what Mantine would find).
      returnFocus={false}
    />
  );
}
