// An Add many run that did not finish (a reload, a closed tab, a Cancel) stays on the device
// (src/lib/import-queue.ts); /reports and /reports/import offer to go on with it, or to drop it.
import { Alert, Button, Group, PasswordInput, Text } from '@mantine/core';
import { IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { clearImport, unfinished } from '@/lib/import-queue';
import type { SavedImport } from '@/lib/import-queue';
import { passwordProblem } from '@/lib/report-url';
import { RoleGate } from './role-gate';

export interface ImportResumeProps {
  saved: SavedImport;
  /** On /reports/import: resume here (with the batch's password, for privacy Password). */
  onResume?: (password: string | undefined) => void;
  /** Elsewhere: a link there, which resumes on arrival. */
  resumeTo?: string;
}

/** The offer to resume or discard an unfinished import; none to a role that may not add reports. */
export function ImportResume(props: ImportResumeProps) {
  return (
    <RoleGate>
      <ResumeOffer {...props} />
    </RoleGate>
  );
}

function ResumeOffer({ saved, onResume, resumeTo }: ImportResumeProps) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const left = unfinished(saved);
  const done = saved.items.filter((item) => item.state === 'done').length;
  const needsPassword = onResume !== undefined && saved.privacy === 2 && left > 0;
  const resume = () => {
    if (!onResume) return;
    if (needsPassword) {
      const problem = passwordProblem(password);
      setError(problem);
      if (problem) return;
    }
    onResume(needsPassword ? password : undefined);
  };
  return (
    // Mantine's Alert is role="alert"; the offer is a named region that stays, not an announcement.
    <section aria-label="An import did not finish">
      <Alert color="yellow" variant="light" title="An import did not finish" role="none">
        <Text size="sm">
          {done.toLocaleString('en')} of {saved.items.length.toLocaleString('en')} URLs are done;{' '}
          {left.toLocaleString('en')} {left === 1 ? 'is' : 'are'} left. Resume it: a URL whose answer was lost
          is looked up first, so none is created twice.
        </Text>
        {needsPassword && (
          <PasswordInput
            mt="xs"
            maw={360}
            label="Password"
            description="The batch’s password is not kept on the device: enter it again."
            autoComplete="new-password"
            withAsterisk
            value={password}
            error={error}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
        )}
        <Group gap="xs" mt="xs">
          {onResume ? (
            <Button size="xs" leftSection={<IconPlayerPlay size={14} aria-hidden />} onClick={resume}>
              Resume
            </Button>
          ) : (
            <Button
              size="xs"
              component={Link}
              to={resumeTo ?? '/reports/import'}
              state={{ resume: true }}
              leftSection={<IconPlayerPlay size={14} aria-hidden />}
            >
              Resume
            </Button>
          )}
          <Button
            size="xs"
            variant="default"
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={clearImport}
          >
            Discard
          </Button>
        </Group>
      </Alert>
    </section>
  );
}
