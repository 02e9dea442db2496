// Keeps the audit log to AUDIT_DAYS: entries older than that are dropped at start and then every
// hour, by every process (a delete of what is past the line is the same whichever process does it,
// and twice is as once). Nothing else ever deletes or changes an entry.
import type { AccountStorage } from '../storage/account-storage';

const DAY_MS = 86_400_000;
/** How often the old entries are dropped: an entry outlives AUDIT_DAYS by at most this. */
export const AUDIT_PRUNE_MS = 3_600_000;

export interface AuditPrunerOptions {
  accounts: Pick<AccountStorage, 'dropAuditBefore'>;
  days: number;
  now?: () => Date;
  logError?: (message: string) => void;
  /** false: no timer, prunes only when asked (tests drive a clock). */
  timer?: boolean;
}

export interface AuditPruner {
  /** Drops the entries older than `days`; how many went. */
  prune(): Promise<number>;
  close(): Promise<void>;
}

export function startAuditPruner(options: AuditPrunerOptions): AuditPruner {
  const now = options.now ?? (() => new Date());
  const logError = options.logError ?? ((message: string) => console.error(message));
  let running: Promise<number> | null = null;
  const prune = () => {
    running ??= options.accounts
      .dropAuditBefore(new Date(now().getTime() - options.days * DAY_MS))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const scheduled = () => {
    prune().catch((error: unknown) => logError(`Audit log: old entries not dropped: ${error instanceof Error ? error.message : String(error)}`));
  };
  let timer: NodeJS.Timeout | null = null;
  if (options.timer !== false) {
    scheduled();
    timer = setInterval(scheduled, AUDIT_PRUNE_MS);
    timer.unref();
  }
  return {
    prune,
    close: async () => {
      if (timer) clearInterval(timer);
      await running?.catch(() => 0);
    },
  };
}
