// Undoable deletes against the real reference server (in memory): nothing is sent within the window,
// Undo sends nothing ever, the window's end sends each DELETE once, and a tab being closed sends
// with keepalive what it can and leaves the rest on the device for the next visit.
import { useQuery } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { recordRequests, server, useRealApi } from '../../test/msw';
import { deletes, seedReport, signInForEachTest } from '../../test/projects-kit';
import { withClient } from '../../test/fixtures/query-harness';
import { createTestQueryClient } from '../../test/render';
import { passUndoWindow, useUndoClock } from '../../test/undo-clock';
import { noteRateBudget, rateLimitScope } from '@/api/http/rate-limit';
import type { DeleteOutcome, DeleteTarget } from './pending-deletes';
import {
  ABANDONED_AFTER_MS,
  KEEPALIVE_MAX,
  UNDO_WINDOW_MS,
  holdDeletes,
  sendBeforeLeaving,
  takeLeftDeletes,
} from './pending-deletes';
import { PENDING_DELETES_KEY } from '@/lib/pending-deletes-key';
import { followHeldRows, hiddenRows } from '@/api/hidden-rows';
import { reportQueries } from '@/api/reports';

signInForEachTest();

const report = (id: number, url = `https://shop.example/${id}`): DeleteTarget => ({
  kind: 'report',
  id,
  url,
  project: 'shop.example',
});

function stored(): { tab: string; left: boolean; targets: DeleteTarget[] }[] {
  const text = window.localStorage.getItem(PENDING_DELETES_KEY);
  return text === null ? [] : (JSON.parse(text) as { entries: never[] }).entries;
}

describe('Held deletes', () => {
  it('Undo within the window: nothing is sent, then or later, and the rows come back', async () => {
    useUndoClock();
    const api = useRealApi();
    const { id } = await seedReport(api, 'shop.example');
    const seen = recordRequests();
    const queryClient = createTestQueryClient();

    const held = holdDeletes(queryClient, [report(id)]);
    expect(hiddenRows().reports.has(id)).toBe(true);
    expect(hiddenRows().fewerReports.get('shop.example')).toBe(1);
    expect(stored()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 100);
    expect(deletes(seen)).toEqual([]);

    expect(held.undo()).toBe(true);
    expect(hiddenRows().reports.size).toBe(0);
    expect(stored()).toEqual([]);
    await vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS * 3);
    expect(deletes(seen)).toEqual([]);
    const { storage } = await api.backend();
    expect(await storage.getReport(id)).not.toBeNull();
  });

  it('the reports list, read through its query alone, leaves a held report out and has it back at once on Undo', async () => {
    useUndoClock();
    const api = useRealApi();
    const kept = await seedReport(api, 'shop.example');
    const { id } = await seedReport(api, 'shop.example', 'https://shop.example/cart');
    const queryClient = createTestQueryClient();
    // As the app's providers do for the app's QueryClient.
    onTestFinished(followHeldRows(queryClient));
    const list = renderHook(() => useQuery(reportQueries.list()), { wrapper: withClient(queryClient) });
    const ids = () => list.result.current.data?.items.map((item) => item.id);
    await waitFor(() => expect(ids()).toEqual([id, kept.id]));
    const seen = recordRequests();

    const held = holdDeletes(queryClient, [report(id)]);
    await waitFor(() => expect(ids()).toEqual([kept.id]));
    expect(list.result.current.data?.meta.total).toBe(1);

    held.undo();
    await waitFor(() => expect(ids()).toEqual([id, kept.id]));
    expect(list.result.current.data?.meta.total).toBe(2);
    // Back from the answer already in the cache: nothing was asked again.
    expect(seen).toEqual([]);
  });

  it('after the window: each DELETE is sent once, the rows stay hidden until the caches forgot them', async () => {
    useUndoClock();
    const api = useRealApi();
    const first = await seedReport(api, 'shop.example');
    const second = await seedReport(api, 'shop.example', 'https://shop.example/cart');
    const seen = recordRequests();
    const queryClient = createTestQueryClient();
    const outcomes: DeleteOutcome[] = [];
    const sending = vi.fn();

    const held = holdDeletes(queryClient, [report(first.id), report(second.id)], {
      onSending: sending,
      onDone: (outcome) => outcomes.push(outcome),
    });
    expect(deletes(seen)).toEqual([]);
    await passUndoWindow();
    expect(sending).toHaveBeenCalledTimes(1);
    // Too late to undo once sent.
    expect(held.undo()).toBe(false);
    await waitFor(() => expect(outcomes).toHaveLength(1));
    expect(outcomes[0]!.failed).toEqual([]);
    expect(outcomes[0]!.deleted).toHaveLength(2);
    expect(deletes(seen).map((request) => new URL(request.url).pathname).sort()).toEqual(
      [`/api/v1/reports/${first.id}`, `/api/v1/reports/${second.id}`].sort(),
    );
    expect(hiddenRows().reports.size).toBe(0);
    expect(stored()).toEqual([]);
    const { storage } = await api.backend();
    expect(await storage.countReports()).toBe(0);
  });

  it('a refused delete comes back with the reason; a report already gone counts as deleted', async () => {
    useUndoClock();
    const api = useRealApi();
    const kept = await seedReport(api, 'shop.example');
    const gone = await seedReport(api, 'shop.example', 'https://shop.example/gone');
    server.use(
      http.delete(`*/api/v1/reports/${kept.id}`, () =>
        HttpResponse.json({ message: 'This report is locked.', status: 409 }, { status: 409 }),
      ),
    );
    const { storage } = await api.backend();
    await storage.deleteReport(gone.id);
    const outcomes: DeleteOutcome[] = [];
    holdDeletes(createTestQueryClient(), [report(kept.id), report(gone.id)], {
      onDone: (outcome) => outcomes.push(outcome),
    });
    await passUndoWindow();
    await waitFor(() => expect(outcomes).toHaveLength(1));
    expect(outcomes[0]!.deleted).toEqual([report(gone.id)]);
    expect(outcomes[0]!.failed).toEqual([{ target: report(kept.id), message: 'This report is locked.' }]);
    expect(hiddenRows().reports.size).toBe(0);
  });

  it('a tab being closed sends what it holds at once with keepalive, before the window ends', async () => {
    useUndoClock();
    const api = useRealApi();
    const { id } = await seedReport(api, 'shop.example');
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const outcomes: DeleteOutcome[] = [];
    holdDeletes(createTestQueryClient(), [report(id)], { onDone: (outcome) => outcomes.push(outcome) });

    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    const sent = fetchSpy.mock.calls.filter(([, init]) => init?.method === 'DELETE');
    expect(sent).toHaveLength(1);
    expect(sent[0]![1]).toMatchObject({ keepalive: true });
    expect(new Headers(sent[0]![1]!.headers).get('Authorization')).toMatch(/^Bearer /);
    expect(sent[0]![1]!.body).toBeUndefined();
    // Sent: nothing is left for the next visit.
    expect(stored()).toEqual([]);
    await waitFor(() => expect(outcomes).toHaveLength(1));
    const { storage } = await api.backend();
    expect(await storage.getReport(id)).toBeNull();
  });

  it('what a closing tab cannot send (past KEEPALIVE_MAX, or the rate limit) is left for the next visit', async () => {
    useRealApi();
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const many = Array.from({ length: KEEPALIVE_MAX + 5 }, (_, i) => report(i + 1));
    holdDeletes(createTestQueryClient(), many);
    sendBeforeLeaving();
    expect(fetchSpy.mock.calls.filter(([, init]) => init?.keepalive === true)).toHaveLength(KEEPALIVE_MAX);
    expect(stored()).toHaveLength(1);
    expect(stored()[0]!.left).toBe(true);
    expect(stored()[0]!.targets.map((target) => (target.kind === 'report' ? target.id : 0))).toEqual(
      many.slice(KEEPALIVE_MAX).map((target) => (target.kind === 'report' ? target.id : 0)),
    );

    // With 2 requests left in the service's budget, only 2 go.
    fetchSpy.mockClear();
    noteRateBudget(
      rateLimitScope(new URL(window.location.origin), 'test-key'),
      new Headers({ 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '2' }),
    );
    holdDeletes(createTestQueryClient(), [report(100), report(101), report(102)]);
    sendBeforeLeaving();
    expect(fetchSpy.mock.calls.filter(([, init]) => init?.keepalive === true)).toHaveLength(2);
  });

  it('the next visit takes over what a closed tab left, and, after a while, what a killed one held', async () => {
    useUndoClock();
    const held = holdDeletes(createTestQueryClient(), [report(2)]);
    // This tab's own entry, and others made from it as other tabs (and another API key) left them.
    const [own] = stored() as unknown as Record<string, unknown>[];
    const now = Date.now();
    const other = (key: string, changes: Record<string, unknown>) => ({
      ...own,
      key,
      tab: 'another-tab',
      dueAt: now,
      targets: [report(7)],
      ...changes,
    });
    const entries = [
      own,
      other('closed', { left: true }),
      other('killed', { left: false }),
      other('other-key', { left: true, keyPrint: 'someone-else' }),
      { junk: 1 },
    ];
    window.localStorage.setItem(PENDING_DELETES_KEY, JSON.stringify({ version: 1, entries }));

    const first = takeLeftDeletes();
    expect(first.taken).toEqual([[report(7)]]);
    expect(first.askAgainAt).toBe(now + ABANDONED_AFTER_MS);
    // The closed tab's is taken off the device (and the unreadable one dropped); the rest stay.
    const keys = () => (stored() as unknown as { key: string }[]).map((entry) => entry.key).sort();
    expect(keys()).toEqual([own!.key, 'killed', 'other-key'].sort());

    // A tab that never said it closed is taken for gone once its delete is long overdue.
    held.undo();
    await vi.advanceTimersByTimeAsync(ABANDONED_AFTER_MS);
    expect(takeLeftDeletes().taken).toEqual([[report(7)]]);
    expect(takeLeftDeletes().taken).toEqual([]);
    expect(keys()).toEqual(['other-key']);
  });

  it('a sender of its own (Delete selected): each answer leaves the device, a refused one comes back at once, a long sending is not taken for abandoned', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    const seen = recordRequests();
    const given: DeleteTarget[][] = [];
    let settle!: (target: DeleteTarget, deleted: boolean) => void;
    let finish!: (outcome: DeleteOutcome) => void;
    const outcomes: DeleteOutcome[] = [];
    const held = holdDeletes(createTestQueryClient(), [report(2), report(3), report(4)], {
      send: (targets, _connection, settled) => {
        given.push(targets);
        settle = settled;
        return new Promise((resolve) => (finish = resolve));
      },
      onDone: (outcome) => outcomes.push(outcome),
    });
    await passUndoWindow();
    expect(given).toEqual([[report(2), report(3), report(4)]]);
    expect(held.undo()).toBe(false);
    expect([...hiddenRows().reports]).toEqual([2, 3, 4]);

    // Refused: back in the lists at once, and off the device. Deleted: off the device, still hidden
    // until the sender is done (the lists refetch first).
    settle(report(3), false);
    settle(report(2), true);
    expect([...hiddenRows().reports]).toEqual([2, 4]);
    expect(stored().map((entry) => entry.targets)).toEqual([[report(4)]]);

    // As another tab sees the device: this page is at it, however long it takes.
    const entries = stored();
    entries[0]!.tab = 'another-tab';
    window.localStorage.setItem(PENDING_DELETES_KEY, JSON.stringify({ version: 1, entries }));
    await vi.advanceTimersByTimeAsync(ABANDONED_AFTER_MS * 2);
    expect(takeLeftDeletes().taken).toEqual([]);

    finish({ deleted: [report(2), report(4)], failed: [{ target: report(3), message: 'Locked.' }] });
    await waitFor(() => expect(outcomes).toHaveLength(1));
    expect(hiddenRows().reports.size).toBe(0);
    expect(stored()).toEqual([]);
    // The sender sent everything; this module nothing of its own.
    expect(deletes(seen)).toEqual([]);
  });
});
