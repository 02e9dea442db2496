// Makes and sends the digests (issue 48). What is due is read from storage at every tick, as the
// schedules' runs are: a scheduled digest is made once for its time whatever the number of
// processes (its slot is unique), and each digest is taken by one process at a time (compare-and-set).
// Its content is fixed when it is made, so that a retry sends the same message. A failed e-mail is
// retried with growing delays for up to 24 hours (the webhooks' delays), then marked failed; the
// state of the last digest is what Settings shows, so no failure passes silently. Each workspace has
// its own digests: the runner reads every workspace's settings and due digests, and makes and sends
// each one with its workspace's storage (its data, recipients, webhooks and branding alone).
import type { Mailer } from '../net/mailer';
import { MailError } from '../net/mailer';
import type { DigestSendRecord } from '../storage/digest-storage';
import type { Storage } from '../storage/types';
import { buildDigest, digestSince, type DigestJson } from './digest';
import { digestMail } from './digest-mail';
import { dueRun } from './schedule-time';
import { digestEvent } from './webhook-events';
import { nextAttemptAt } from './webhook-retry';

export const NO_SMTP_ERROR = 'This server has no SMTP_URL, so it cannot send e-mail.';

export interface DigestRunnerOptions {
  /** The root storage: the runner asks it for every workspace's due digests. */
  storage: Storage;
  /** null: SMTP_URL is not set; a digest with recipients then fails, saying so. */
  mailer: Mailer | null;
  now?: () => Date;
  /** How often due digests are looked for. */
  tickMs?: number;
  /** A digest taken this long ago by a process that has not finished it is taken again. */
  staleMs?: number;
  /** The dashboard's origin, for the e-mail's links; null: not known (yet). */
  origin?: () => string | null;
  /** Told when a `digest.sent` event was queued. */
  webhookWorker?: { tick(): Promise<void> } | null;
  logError?: (message: string) => void;
  /** false: no timer, ticks only when asked (tests drive a clock). */
  timer?: boolean;
}

export interface DigestRunner {
  /** Makes the digest due, if any, and sends every digest due (what the timer does). */
  tick(): Promise<void>;
  /** Makes a digest of `workspace` (a workspace's storage) now (Send now) and tries it at once; its state after that first attempt. */
  sendNow(workspace: Storage): Promise<DigestSendRecord>;
  close(): Promise<void>;
}

/** Makes a digest of what changed since the last one up to `at`; null when a scheduled one of `slot` exists already. */
export async function makeDigest(storage: Storage, kind: 'scheduled' | 'manual', slot: Date | null, at: Date): Promise<DigestSendRecord | null> {
  const settings = await storage.digests.getSettings();
  const since = await digestSince(storage, settings.every, at);
  const digest = await buildDigest(storage, since, at);
  return storage.digests.addSend({
    kind,
    slot,
    since,
    until: digest.until,
    recipients: settings.recipients,
    webhook: settings.webhook,
    payload: JSON.stringify(digest),
    now: at,
  });
}

export function startDigestRunner(options: DigestRunnerOptions): DigestRunner {
  const { storage, mailer } = options;
  const now = options.now ?? (() => new Date());
  const staleMs = options.staleMs ?? 5 * 60_000;
  const origin = options.origin ?? (() => null);
  const logError = options.logError ?? ((message: string) => console.error(message));
  let closed = false;
  let running: Promise<void> | null = null;

  async function makeDue(): Promise<void> {
    for (const { workspaceId, settings } of await storage.digests.activeSettingsOfEveryWorkspace()) {
      if (closed) return;
      if (settings.every === 'off' || settings.updatedAt === null) continue;
      const workspace = storage.forWorkspace(workspaceId);
      const last = await workspace.digests.lastSlot();
      const due = dueRun(settings, last ? new Date(last) : null, new Date(settings.updatedAt), now());
      if (due) await makeDigest(workspace, 'scheduled', due, now());
    }
  }

  /** One attempt of a taken digest, with its workspace's storage: its webhook event once, then its e-mail. */
  async function attempt(send: DigestSendRecord): Promise<DigestSendRecord> {
    const workspace = storage.forWorkspace(send.workspaceId);
    const at = now();
    const digest = JSON.parse(send.payload) as DigestJson;
    if (send.webhook && !send.webhookQueued) {
      if (await workspace.digests.queueWebhook(send.id, digestEvent(send.id, digest, at))) void options.webhookWorker?.tick();
    }
    let error: string | null = null;
    if (send.recipients.length > 0) {
      if (!mailer) error = NO_SMTP_ERROR;
      else {
        try {
          const branding = await workspace.branding.getBranding();
          const logo = branding.logo ? await workspace.branding.getLogo(branding.logo.sha256) : null;
          const mail = await digestMail(digest, origin(), { branding, logo });
          await mailer.send({ to: send.recipients, ...mail });
        } catch (caught) {
          error = caught instanceof MailError ? caught.message : 'The e-mail could not be sent.';
          if (!(caught instanceof MailError)) logError(`Digest ${send.id}: ${caught instanceof Error ? caught.message : String(caught)}`);
        }
      }
    }
    const retryAt = error === null ? null : nextAttemptAt(new Date(send.createdAt), send.attempts + 1, at);
    const finished = await workspace.digests.finishAttempt(send, { attemptedAt: at, error, retryAt });
    return finished ?? (await workspace.digests.getSend(send.id)) ?? send;
  }

  async function sendDue(): Promise<void> {
    while (!closed) {
      const at = now();
      const send = await storage.digests.takeDue(at, new Date(at.getTime() - staleMs));
      if (!send) return;
      await attempt(send);
    }
  }

  function tick(): Promise<void> {
    running ??= (async () => {
      try {
        await makeDue();
        await sendDue();
      } catch (error) {
        logError(`Digests: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  let timer: NodeJS.Timeout | null = null;
  if (options.timer !== false) {
    timer = setInterval(() => void tick(), options.tickMs ?? 30_000);
    timer.unref();
    void tick();
  }

  return {
    tick,
    async sendNow(workspace) {
      const at = now();
      const made = await makeDigest(workspace, 'manual', null, at);
      if (!made) throw new Error('A digest made without a slot was refused.');
      const taken = await workspace.digests.takeDue(at, new Date(at.getTime() - staleMs), made.id);
      // Taken by a tick meanwhile: that one sends it.
      if (!taken) return (await workspace.digests.getSend(made.id)) ?? made;
      return attempt(taken);
    },
    close: async () => {
      closed = true;
      if (timer) clearInterval(timer);
      await running;
      mailer?.close();
    },
  };
}
