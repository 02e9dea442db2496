// Undoable deletes: a delete is held on this device for UNDO_WINDOW_MS before anything is sent, its
// rows hidden from every list meanwhile. Undo within the window sends nothing at all. A tab being
// closed sends what is held at once (fetch with keepalive, a few requests at most); what it cannot
// send stays in localStorage and is offered again, with Undo, on the next visit. Every held delete
// is written to localStorage when it is made, so a browser killed during the window loses nothing
// that the next visit of the same connection does not offer again.
import type { QueryClient } from '@tanstack/react-query';
import type { Page, Project, Report } from '@/contract/domain';
import * as z from 'zod/mini';
import { PENDING_DELETES_KEY } from '@/lib/pending-deletes-key';
import { RESULTS } from '@/contract/values';
import { publishHeld, withoutItems } from '@/api/hidden-rows';
import type { DeleteTarget } from '@/api/hidden-rows';
import { readConnection } from '@/api/http/connection';
import { errorMessage, isApiError } from '@/api/http/errors';
import { apiFetch, apiUrl } from '@/api/http/http';
import { dropProjectReports } from '@/api/projects-mutations';
import { projectKeys, reportKeys } from '@/api/query-keys';
import { reportQueries } from '@/api/reports';
import { rateBudget, rateLimitScope, rateLimitWaitMs } from '@/api/http/rate-limit';
import { forgetDeletedReport, refetchAllLists } from '@/api/reports-mutations';
import { createScheduler } from '@/api/http/scheduler';

export type { DeleteTarget } from '@/api/hidden-rows';

/** How long a delete waits for Undo before it is sent (the notification shows this long). */
export const UNDO_WINDOW_MS = 6_000;
/** At most this many DELETEs go out with keepalive as a tab closes; the rest wait for the next visit. */
export const KEEPALIVE_MAX = 10;
/** A stored delete this long past its time whose tab never said anything of it: that tab is gone. */
export const ABANDONED_AFTER_MS = 30_000;

const STORAGE_KEY = PENDING_DELETES_KEY;
const VERSION = 1;

export interface DeleteOutcome {
  deleted: DeleteTarget[];
  failed: { target: DeleteTarget; message: string }[];
  /** Never sent: the sending was cancelled. */
  notSent?: DeleteTarget[];
}

/**
 * Sends the deletes once their window is over, in place of the plain sending below (Delete selected:
 * a bulk run with its progress). It tells `settled` of each target as soon as it has its answer,
 * `deleted` false for one that is still there (refused, or not sent); the rows of those come back
 * into the lists at once, the others once the whole delete is done.
 */
export type DeleteSender = (
  targets: DeleteTarget[],
  connection: Connection,
  settled: (target: DeleteTarget, deleted: boolean) => void,
) => Promise<DeleteOutcome>;

export interface DeleteHandlers {
  /** The window is over and the requests go out (Undo no longer possible). */
  onSending?: () => void;
  /** Every request has its answer (a 404 counts as deleted: it is gone either way). */
  onDone?: (outcome: DeleteOutcome) => void;
  /** Sends them itself (see DeleteSender); by default they go through a scheduler of their own. */
  send?: DeleteSender;
}

export interface HeldDelete {
  key: string;
  dueAt: number;
  /** Nothing is sent; the rows come back. False when it is too late (already sent). */
  undo: () => boolean;
}

// ---------------------------------------------------------------------------------------------
// The device's copy.

export interface Connection {
  baseUrl: string;
  apiKey: string | null;
}

const targetSchema = z.union([
  z.object({
    kind: z.literal('report'),
    id: z.int(),
    url: z.string(),
    project: z.nullable(z.string()),
    result: z.optional(z.nullable(z.enum(RESULTS))),
  }),
  z.object({ kind: z.literal('project'), name: z.string(), reports: z.nullable(z.int()) }),
]);

const entrySchema = z.object({
  key: z.string(),
  /** The page that holds it; another page takes it over only once that one is gone. */
  tab: z.string(),
  dueAt: z.number(),
  /** Its tab closed without sending it. */
  left: z.boolean(),
  baseUrl: z.string(),
  /** Which API key it belongs to, as a fingerprint (the key itself is not written here). */
  keyPrint: z.string(),
  targets: z.array(targetSchema),
});
type Entry = z.infer<typeof entrySchema>;

const storedSchema = z.object({ version: z.literal(VERSION), entries: z.array(z.unknown()) });

/** FNV-1a of the key: tells one key from another without keeping anything it could be read from. */
function keyPrint(apiKey: string | null): string {
  let hash = 0x811c9dc5;
  for (const char of apiKey?.trim() ?? '') {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function readEntries(): Entry[] {
  try {
    const text = storage()?.getItem(STORAGE_KEY);
    if (!text) return [];
    const stored = storedSchema.safeParse(JSON.parse(text));
    if (!stored.success) return [];
    // One unreadable entry is dropped, not the others.
    return stored.data.entries.flatMap((entry) => {
      const parsed = entrySchema.safeParse(entry);
      return parsed.success ? [parsed.data] : [];
    });
  } catch {
    return [];
  }
}

function writeEntries(entries: Entry[]): void {
  try {
    const store = storage();
    if (!store) return;
    if (entries.length === 0) store.removeItem(STORAGE_KEY);
    else store.setItem(STORAGE_KEY, JSON.stringify({ version: VERSION, entries }));
  } catch {
    // Full or refused: the delete still waits in this page; only a killed browser would lose it.
  }
}

function updateEntries(change: (entries: Entry[]) => Entry[]): void {
  writeEntries(change(readEntries()));
}

// ---------------------------------------------------------------------------------------------
// The held deletes of this page.

/** This page, among the tabs that share the device's storage. */
const TAB = Math.random().toString(36).slice(2) + Date.now().toString(36);

interface Group {
  key: string;
  targets: DeleteTarget[];
  dueAt: number;
  connection: Connection;
  queryClient: QueryClient;
  handlers: DeleteHandlers;
  timer: ReturnType<typeof setTimeout> | null;
  /** While sending: keeps the device's copy marked as this live page's (see ABANDONED_AFTER_MS). */
  heartbeat: ReturnType<typeof setInterval> | null;
  state: 'waiting' | 'sending' | 'left';
}

// Module-level, as the device's copy is: a held delete is the page's, not a screen's. It outlives the
// screen that made it (the person moves on during the window), and the tab's closing sends it.
const groups = new Map<string, Group>();
function changed(): void {
  publishHeld(groups.values());
}

/** Numbers this page's held deletes; with TAB, each one's key on the device. */
let sequence = 0;

/**
 * Holds these deletes for UNDO_WINDOW_MS (or `delayMs`), then sends them through the request
 * scheduler; their rows are hidden meanwhile and come back on Undo or on a failure.
 */
export function holdDeletes(
  queryClient: QueryClient,
  targets: DeleteTarget[],
  handlers: DeleteHandlers = {},
  delayMs = UNDO_WINDOW_MS,
): HeldDelete {
  listenForPageHide();
  sequence += 1;
  const key = `${TAB}-${sequence}`;
  const connection = readConnection();
  const group: Group = {
    key,
    targets: targets.map((target) => (target.kind === 'report' ? withCachedFacts(queryClient, target) : target)),
    dueAt: Date.now() + delayMs,
    connection: { baseUrl: connection.baseUrl, apiKey: connection.apiKey },
    queryClient,
    handlers,
    timer: null,
    heartbeat: null,
    state: 'waiting',
  };
  group.timer = setTimeout(() => void send(group), delayMs);
  groups.set(key, group);
  updateEntries((entries) => [...entries, entryOf(group)]);
  changed();
  return {
    key,
    dueAt: group.dueAt,
    undo: () => {
      if (group.state === 'sending' || !groups.has(key)) return false;
      if (group.timer !== null) clearTimeout(group.timer);
      groups.delete(key);
      updateEntries((entries) => entries.filter((entry) => entry.key !== key));
      changed();
      return true;
    },
  };
}

type ReportTarget = Extract<DeleteTarget, { kind: 'report' }>;

/**
 * A report's project and result as a cached answer says, where the target does not (a selection
 * knows only ids and URLs): the projects' counts and health leave out what is held.
 */
function withCachedFacts(queryClient: QueryClient, target: ReportTarget): ReportTarget {
  if (target.project !== null && target.result !== undefined) return target;
  let cached: Report | undefined = queryClient.getQueryData(reportQueries.detail(target.id).queryKey);
  for (const [, page] of queryClient.getQueriesData<Page<Report>>({ queryKey: reportKeys.lists() })) {
    if (cached) break;
    cached = page?.items.find((item) => item.id === target.id);
  }
  if (!cached) return target;
  return { ...target, project: target.project ?? cached.project, result: target.result ?? cached.result };
}

function entryOf(group: Group, left = false): Entry {
  return {
    key: group.key,
    tab: TAB,
    dueAt: group.dueAt,
    left,
    baseUrl: group.connection.baseUrl,
    keyPrint: keyPrint(group.connection.apiKey),
    targets: group.targets,
  };
}

function requestOf(target: DeleteTarget, connection: Connection, signal?: AbortSignal, keepalive = false) {
  const path = target.kind === 'report' ? ['reports', target.id] : ['projects', target.name];
  return apiFetch({ method: 'DELETE', path, signal, connection, keepalive });
}

type Answer = { target: DeleteTarget; error: null } | { target: DeleteTarget; error: unknown };

async function answerOf(target: DeleteTarget, request: Promise<unknown>): Promise<Answer> {
  try {
    await request;
    return { target, error: null };
  } catch (error) {
    // Someone else deleted it first: it is gone, which is what was asked.
    if (isApiError(error) && error.kind === 'not-found') return { target, error: null };
    return { target, error };
  }
}

/** Sending can outlast ABANDONED_AFTER_MS (a long bulk run, a 429): this page says it is still at it. */
function keepAlive(group: Group): void {
  const beat = () =>
    updateEntries((entries) =>
      entries.map((entry) => (entry.key === group.key ? { ...entry, dueAt: Date.now() } : entry)),
    );
  group.heartbeat = setInterval(beat, ABANDONED_AFTER_MS / 3);
}

function sameTarget(a: DeleteTarget, b: DeleteTarget): boolean {
  return a.kind === 'report' ? b.kind === 'report' && a.id === b.id : b.kind === 'project' && a.name === b.name;
}

async function send(group: Group): Promise<void> {
  if (group.state !== 'waiting') return;
  group.state = 'sending';
  group.timer = null;
  keepAlive(group);
  group.handlers.onSending?.();
  const sender = group.handlers.send;
  if (sender) {
    const outcome = await sender(group.targets.slice(), group.connection, (target, deleted) => {
      // Off the device at once: a next visit must not send it again.
      updateEntries((entries) =>
        entries.map((entry) =>
          entry.key === group.key
            ? { ...entry, targets: entry.targets.filter((held) => !sameTarget(held, target)) }
            : entry,
        ),
      );
      if (deleted) return;
      // Still there: its row comes back now. A deleted one stays hidden until the lists have refetched.
      group.targets = group.targets.filter((held) => !sameTarget(held, target));
      changed();
    });
    finish(group);
    group.handlers.onDone?.(outcome);
    return;
  }
  // Bulk deletes go through the scheduler as every fan-out does: paced to the rate limit, retried.
  const scheduler = createScheduler();
  const answers = await Promise.all(
    group.targets.map((target) =>
      answerOf(
        target,
        scheduler.run((signal) => requestOf(target, group.connection, signal)),
      ),
    ),
  );
  await settle(group, answers);
}

/** The caches learn each answer before the rows stop being hidden, so nothing flashes back. */
async function settle(group: Group, answers: Answer[]): Promise<void> {
  const { queryClient } = group;
  const deleted = answers.filter((answer) => answer.error === null).map((answer) => answer.target);
  await Promise.all(
    deleted.map((target) =>
      target.kind === 'report'
        ? forgetDeletedReport(queryClient, target.id)
        : forgetDeletedProject(queryClient, target.name),
    ),
  );
  finish(group);
  const failed = answers.flatMap((answer) =>
    answer.error === null ? [] : [{ target: answer.target, message: errorMessage(answer.error) }],
  );
  group.handlers.onDone?.({ deleted, failed });
  if (deleted.length > 0) await refetchAllLists(queryClient);
}

function finish(group: Group): void {
  if (group.heartbeat !== null) clearInterval(group.heartbeat);
  group.heartbeat = null;
  groups.delete(group.key);
  updateEntries((entries) => entries.filter((entry) => entry.key !== group.key));
  changed();
}

/** A deleted project: out of every cached projects list at once, its reports dropped from the caches. */
async function forgetDeletedProject(queryClient: QueryClient, name: string): Promise<void> {
  queryClient.setQueriesData<Page<Project>>({ queryKey: projectKeys.lists() }, (page) =>
    page ? withoutItems(page, (project) => project.name !== name) : page,
  );
  await dropProjectReports(queryClient, name);
}

// ---------------------------------------------------------------------------------------------
// A tab being closed, and the next visit.

/** Whether the page's pagehide and pageshow listeners are added (once, with the first held delete). */
let listening = false;

function listenForPageHide(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener('pagehide', sendBeforeLeaving);
  // Back from the back-forward cache: what was left for the next visit is sent now, by this page.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) resumeLeft();
  });
}

/** How many requests the rate limit leaves room for now (none while a 429's Retry-After runs). */
function keepaliveRoom(connection: Connection): number {
  try {
    const scope = rateLimitScope(apiUrl(connection.baseUrl, []), connection.apiKey);
    if (rateLimitWaitMs(scope) > 0) return 0;
    return rateBudget(scope)?.remaining ?? KEEPALIVE_MAX;
  } catch {
    return 0;
  }
}

/**
 * The page is going away: up to KEEPALIVE_MAX held deletes (fewer when the rate limit's budget is
 * lower) go out at once with keepalive; the others are marked left, for the next visit.
 */
export function sendBeforeLeaving(): void {
  const waiting = [...groups.values()].filter((group) => group.state === 'waiting');
  if (waiting.length === 0) return;
  let room = KEEPALIVE_MAX;
  const entries = readEntries();
  const kept: Entry[] = entries.filter((entry) => !waiting.some((group) => group.key === entry.key));
  for (const group of waiting) {
    if (group.timer !== null) clearTimeout(group.timer);
    group.timer = null;
    room = Math.min(room, keepaliveRoom(group.connection));
    const now = group.targets.slice(0, Math.max(0, room));
    const later = group.targets.slice(now.length);
    room -= now.length;
    if (now.length > 0) {
      // The requests are the browser's now; what this page learns of them, if it lives on, it notes.
      const sent: Group =
        later.length === 0 ? group : { ...group, key: `${group.key}-sent`, targets: now, handlers: {} };
      sent.state = 'sending';
      groups.set(sent.key, sent);
      const answers = now.map((target) =>
        answerOf(target, requestOf(target, group.connection, undefined, true)),
      );
      void Promise.all(answers).then((done) => settle(sent, done));
      if (later.length === 0) continue;
      group.targets = later;
    }
    group.state = 'left';
    kept.push(entryOf(group, true));
  }
  writeEntries(kept);
}

function resumeLeft(): void {
  const left = [...groups.values()].filter((group) => group.state === 'left');
  if (left.length === 0) return;
  updateEntries((entries) =>
    entries.map((entry) =>
      left.some((group) => group.key === entry.key) ? { ...entry, left: false } : entry,
    ),
  );
  for (const group of left) {
    group.state = 'waiting';
    void send(group);
  }
}

/**
 * Deletes a closed tab (or a killed browser) left on this device for the current connection: taken
 * off the device, to be held again (with Undo) by this page. Those of another connection stay.
 */
export function takeLeftDeletes(): { taken: DeleteTarget[][]; askAgainAt: number | null } {
  const { baseUrl, apiKey } = readConnection();
  const print = keyPrint(apiKey);
  const now = Date.now();
  const entries = readEntries();
  const ours = entries.filter(
    (entry) => entry.tab !== TAB && entry.baseUrl === baseUrl && entry.keyPrint === print,
  );
  const taken = ours.filter((entry) => entry.left || entry.dueAt + ABANDONED_AFTER_MS <= now);
  // Another tab's, not yet known to be abandoned: asked again when it would be.
  const waiting = ours
    .filter((entry) => !taken.includes(entry))
    .map((entry) => entry.dueAt + ABANDONED_AFTER_MS);
  const askAgainAt = waiting.length > 0 ? Math.min(...waiting) : null;
  if (taken.length > 0) writeEntries(entries.filter((entry) => !taken.includes(entry)));
  // One whose every target had its answer (its tab went before it could say so) holds nothing to send.
  return { taken: taken.map((entry) => entry.targets).filter((targets) => targets.length > 0), askAgainAt };
}

/** For tests: forgets every held delete of this page (no request is sent). */
export function forgetHeldDeletes(): void {
  for (const group of groups.values()) {
    if (group.timer !== null) clearTimeout(group.timer);
    if (group.heartbeat !== null) clearInterval(group.heartbeat);
  }
  groups.clear();
  changed();
}
