// Share (ui-contract.md, Sharing and reporting), where the server has `share_links`: a button whose
// dialog is loaded on first use, so the pages that carry it stay as small as they were.
import { Button, type ButtonProps } from '@mantine/core';
import { IconShare } from '@tabler/icons-react';
import { Suspense, lazy, useState } from 'react';
import { useCapabilities } from '@/api/capabilities';
import { usePermission } from '@/api/me';

const loadShareDialog = () => import('./share-dialog');
const ShareDialog = lazy(() => loadShareDialog().then((m) => ({ default: m.ShareDialog })));

export function ShareButton({ target, what, ...props }: { target: string; what: string } & ButtonProps) {
  const { capabilities } = useCapabilities();
  const [open, setOpen] = useState(false);
  // Making a link is a change: a viewer's role may not (the page's own note says so).
  const { allowed } = usePermission('change-data');
  if (!capabilities?.share_links || !allowed) return null;
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconShare size={16} aria-hidden />}
        onPointerEnter={() => void loadShareDialog()}
        onFocus={() => void loadShareDialog()}
        onClick={() => setOpen(true)}
        // A report's page has two (the report's and its History comparison's): each says which.
        aria-label={`Share ${what}`}
        {...props}
      >
        Share
      </Button>
      {open && (
        <Suspense fallback={null}>
          <ShareDialog target={target} what={what} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
