// Bases before dependants, as in Mantine's styles.css.
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/Menu.css';
import { Button, Menu, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { saveColumns } from '@/lib/list-columns';
import { ViewStorageError, deleteView, useSavedViews, viewAddress } from '@/lib/saved-views';
import type { SavedView } from '@/lib/saved-views';
import { useOpenOnMount } from './use-open-on-mount';
import { RenameViewDialog } from './view-name-dialog';
import classes from './views-menu.module.css';

function ignoredNote(ignored: number, unreadable: boolean): string | null {
  if (unreadable) return 'The saved views on this device could not be read; they are left out.';
  if (ignored === 0) return null;
  return ignored === 1
    ? 'One saved view could not be read and is left out.'
    : `${ignored} saved views could not be read and are left out.`;
}

function remove(view: SavedView) {
  try {
    deleteView(view.id);
    notifications.show({
      color: 'teal',
      title: 'View deleted',
      message: `“${view.name}” is no longer in the Views menu.`,
    });
  } catch (error) {
    const message = error instanceof ViewStorageError ? error.message : String(error);
    notifications.show({ color: 'red', title: 'View not deleted', message });
  }
}

/**
 * **Views**: the views saved for the list at `path`, each a link to its address (opening one also
 * brings back the columns it was saved with), with Rename and Delete beside it. Mounted on the
 * first click of its stand-in, so it opens at once.
 */
export function ViewsMenu({ path }: { path: string }) {
  const saved = useSavedViews();
  const views = saved.views.filter((view) => view.path === path);
  const note = ignoredNote(saved.ignored, saved.unreadable);
  const { opened, setOpened, targetRef } = useOpenOnMount();
  const [renaming, setRenaming] = useState<SavedView | null>(null);
  return (
    <>
      <Menu
        opened={opened}
        onChange={setOpened}
        position="bottom-end"
        shadow="md"
        width={300}
        withInitialFocusPlaceholder={false}
      >
        <Menu.Target>
          <Button ref={targetRef} variant="default">
            Views
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {note !== null && (
            <Text component="div" size="sm" fw={500} px="sm" py={6} className={classes.note}>
              {note}
            </Text>
          )}
          {views.length === 0 && (
            <Text component="div" size="sm" c="dimmed" px="sm" py={6}>
              No saved views of this list yet. Save view keeps the filters, sort and page size shown now.
            </Text>
          )}
          {views.map((view) => (
            <div key={view.id} role="group" aria-labelledby={`view-${view.id}`} className={classes.row}>
              <Menu.Item
                component={Link}
                id={`view-${view.id}`}
                to={viewAddress(view)}
                className={classes.name}
                onClick={() => {
                  if (view.columns !== null) saveColumns(view.columns);
                }}
              >
                {view.name}
              </Menu.Item>
              <Menu.Item
                // Named by the action alone, described by the view's name: a view's name picks out one item.
                aria-label="Rename"
                aria-describedby={`view-${view.id}`}
                title="Rename"
                className={classes.action}
                onClick={() => setRenaming(view)}
              >
                <IconPencil size={16} aria-hidden />
              </Menu.Item>
              <Menu.Item
                aria-label="Delete"
                aria-describedby={`view-${view.id}`}
                title="Delete"
                color="red"
                className={classes.action}
                onClick={() => remove(view)}
              >
                <IconTrash size={16} aria-hidden />
              </Menu.Item>
            </div>
          ))}
        </Menu.Dropdown>
      </Menu>
      {renaming !== null && <RenameViewDialog view={renaming} onClose={() => setRenaming(null)} />}
    </>
  );
}
