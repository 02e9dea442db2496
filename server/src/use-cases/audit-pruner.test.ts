import { describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../../test/server/test-app';
import { startAuditPruner } from './audit-pruner';

describe('the audit log’s pruner', () => {
  it('drops the entries older than AUDIT_DAYS, and only those', async () => {
    let now = Date.parse('2026-01-01T12:00:00Z');
    const t = createTestApp({ now: () => new Date(now) });
    for (const name of ['Old', 'Edge', 'New']) {
      expect((await t.call('POST', '/api/v1/members', { form: { name, role: 'viewer' } })).status).toBe(201);
      now += 10 * 86_400_000;
    }
    // Now 30 days after the first entry: with 20 days kept, the first goes, the one 20 days old stays.
    const pruner = startAuditPruner({ accounts: t.storage.accounts, days: 20, now: () => new Date(now), timer: false });
    expect(await pruner.prune()).toBe(1);
    const names = () => t.db.prepare('SELECT changes FROM audit ORDER BY id').pluck().all().map((c) => JSON.parse(c as string).name[1] as string);
    expect(names()).toEqual(['Edge', 'New']);
    expect(await pruner.prune()).toBe(0);
    now += 86_400_000;
    expect(await pruner.prune()).toBe(1);
    expect(names()).toEqual(['New']);
    await pruner.close();
  });

  it('prunes at start and then every hour, and says when it cannot', async () => {
    vi.useFakeTimers();
    try {
      const dropAuditBefore = vi.fn(async () => Promise.reject(new Error('database down')));
      const logError = vi.fn();
      const pruner = startAuditPruner({ accounts: { dropAuditBefore }, days: 365, now: () => new Date('2026-11-20T00:00:00Z'), logError });
      await vi.advanceTimersByTimeAsync(0);
      expect(dropAuditBefore).toHaveBeenCalledTimes(1);
      expect(dropAuditBefore).toHaveBeenCalledWith(new Date('2025-11-20T00:00:00Z'));
      expect(logError).toHaveBeenCalledWith('Audit log: old entries not dropped: database down');
      await vi.advanceTimersByTimeAsync(3_600_000);
      expect(dropAuditBefore).toHaveBeenCalledTimes(2);
      await pruner.close();
      await vi.advanceTimersByTimeAsync(7_200_000);
      expect(dropAuditBefore).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
