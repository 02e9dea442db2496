// Bases before dependants, as in Mantine's styles.css.
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/CheckboxIndicator.css';
import '@mantine/core/styles/Switch.css';
import { Button, Checkbox, Popover, Stack, Switch } from '@mantine/core';
import { useOpenOnMount } from './use-open-on-mount';
import { REPORT_COLUMNS, REPORT_COLUMN_LABELS, saveColumns, shows, useColumns } from '@/lib/list-columns';

/**
 * **Columns**: a checkbox per optional column of the reports table (and of its phone cards) and
 * **Compact rows**, kept on this device. A panel rather than a menu: its items are checkboxes and a
 * switch, which a `menu` role may not hold. Mounted on the first click of its stand-in: it opens at once.
 */
export function ColumnsMenu() {
  const choice = useColumns();
  const { opened, setOpened, targetRef } = useOpenOnMount();
  const toggle = (column: (typeof REPORT_COLUMNS)[number], show: boolean) =>
    saveColumns({
      ...choice,
      hidden: show ? choice.hidden.filter((hidden) => hidden !== column) : [...choice.hidden, column],
    });
  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" shadow="md" trapFocus returnFocus>
      <Popover.Target>
        <Button
          ref={targetRef}
          variant="default"
          onClick={() => setOpened((open) => !open)}
        >
          Columns
        </Button>
      </Popover.Target>
      {/* A dialog named by its button, Columns. */}
      <Popover.Dropdown>
        <Stack gap="xs">
          {REPORT_COLUMNS.map((column) => (
            <Checkbox
              key={column}
              label={REPORT_COLUMN_LABELS[column]}
              checked={shows(choice, column)}
              onChange={(event) => toggle(column, event.currentTarget.checked)}
            />
          ))}
          <Switch
            mt="xs"
            label="Compact rows"
            checked={choice.compact}
            onChange={(event) => saveColumns({ ...choice, compact: event.currentTarget.checked })}
          />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
