// The Views menu, Save view and the Columns menu of a list. What they need beyond a button (Mantine's
// Menu, Popover and Modal with floating-ui, the form, the saved views' storage) loads on first use: a
// pointer or the focus reaching a button fetches it, a click opens it once it is there.
import { Button } from '@mantine/core';
import { Suspense, lazy, useState } from 'react';
import { useLocation } from 'react-router-dom';

const load = () => import('./list-views-lazy');
const ViewsMenu = lazy(() => load().then((m) => ({ default: m.ViewsMenu })));
const SaveViewDialog = lazy(() => load().then((m) => ({ default: m.SaveViewDialog })));
const ColumnsMenu = lazy(() => load().then((m) => ({ default: m.ColumnsMenu })));

/** The button as it is before its menu's code is there; a click loads and opens the menu. */
function StandIn({
  label,
  popup,
  onOpen,
}: {
  label: string;
  popup: 'menu' | 'dialog';
  onOpen: () => void;
}) {
  return (
    <Button
      variant="default"
      aria-haspopup={popup}
      aria-expanded={false}
      onPointerEnter={() => void load()}
      onFocus={() => void load()}
      onClick={onOpen}
    >
      {label}
    </Button>
  );
}

/**
 * The address a view keeps: its rows a page spelled out, so that the view opens with them on a device
 * that remembers another choice (an address without `per_page` means the device's own).
 */
function keptSearch(search: string, perPage: number): string {
  const params = new URLSearchParams(search);
  if (!params.has('per_page')) params.set('per_page', String(perPage));
  return `?${params.toString()}`;
}

/**
 * **Views** and **Save view** for the list at this address, showing `perPage` rows a page;
 * `withColumns`: the views keep the reports table's columns too.
 */
export function ViewsControls({ withColumns, perPage }: { withColumns: boolean; perPage: number }) {
  const location = useLocation();
  const [menuUsed, setMenuUsed] = useState(false);
  const [saving, setSaving] = useState(false);
  const viewsStandIn = (
    <StandIn
      label="Views"
      popup="menu"
      onOpen={() => setMenuUsed(true)}
    />
  );
  return (
    <>
      {menuUsed ? (
        <Suspense fallback={viewsStandIn}>
          <ViewsMenu path={location.pathname} />
        </Suspense>
      ) : (
        viewsStandIn
      )}
      <Button
        variant="default"
        aria-haspopup="dialog"
        onPointerEnter={() => void load()}
        onFocus={() => void load()}
        onClick={() => setSaving(true)}
      >
        Save view
      </Button>
      {saving && (
        <Suspense fallback={null}>
          <SaveViewDialog
            path={location.pathname}
            search={keptSearch(location.search, perPage)}
            withColumns={withColumns}
            onClose={() => setSaving(false)}
          />
        </Suspense>
      )}
    </>
  );
}

/** **Columns**: which optional columns of the reports table show, and **Compact rows**. */
export function ColumnsControl() {
  const [used, setUsed] = useState(false);
  const standIn = (
    <StandIn
      label="Columns"
      popup="dialog"
      onOpen={() => setUsed(true)}
    />
  );
  if (!used) return standIn;
  return (
    <Suspense fallback={standIn}>
      <ColumnsMenu />
    </Suspense>
  );
}

/**
 * The list's Views and Save view, and with `columns` the Columns menu (the reports table). A chunk of
 * its own that the page loads as it renders, like the navigation's Alerts link: not part of what the
 * first render waits for.
 */
export default function ListViewsBar({ columns, perPage }: { columns: boolean; perPage: number }) {
  return (
    <>
      <ViewsControls withColumns={columns} perPage={perPage} />
      {columns && <ColumnsControl />}
    </>
  );
}
