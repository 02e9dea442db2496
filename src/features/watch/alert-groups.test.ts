// Grouping a page of alerts by cause: which alerts share a card, in what order, and which stay alone.
import { describe, expect, it } from 'vitest';
import type { Alert } from '@/api/watch';
import { alertCards } from './alert-groups';

let next = 100;
function alert(extra: Partial<Alert>): Alert {
  next -= 1;
  return {
    id: next,
    reportId: next,
    url: `https://shop.example/${next}`,
    project: 'shop.example',
    kind: 'check_failing',
    before: { score: 90, result: 'good', generatedAt: new Date('2026-11-24T06:00:00Z') },
    after: { score: 70, result: 'decent', generatedAt: new Date('2026-11-25T06:00:00Z') },
    checks: [],
    checkNames: null,
    createdAt: new Date('2026-11-25T06:00:00Z'),
    read: false,
    runId: null,
    deploy: null,
    ...extra,
  };
}

const shape = (items: Alert[]) =>
  alertCards(items).cards.map((card) => (card.type === 'group' ? [card.title, card.alerts.map((a) => a.id), card.alsoFailing] : card.alert.id));

describe('alertCards', () => {
  it("groups one run's alerts by the check they share, the server's names first; other runs and alerts of no run stay apart", () => {
    const a = alert({ runId: 1, checks: ['robots', 'title'], checkNames: ['Indexing allowed', 'Title'] });
    const b = alert({ runId: 1, checks: ['robots', 'title'] });
    const c = alert({ runId: 1, checks: ['robots'] });
    const other = alert({ runId: 2, checks: ['robots'] });
    const alone = alert({ runId: null, checks: ['robots'] });
    expect(shape([a, b, c, other, alone])).toEqual([
      ['Indexing allowed newly failing on 3 pages', [a.id, b.id, c.id], []],
      other.id,
      alone.id,
    ]);
    // Without c, the two share both checks: one card, the other check named as also failing.
    expect(shape([a, b])).toEqual([['Indexing allowed newly failing on 2 pages', [a.id, b.id], ['Title']]]);
  });

  it('groups alerts of no check by kind; recoveries apart; cards in the order of their newest alert', () => {
    const single = alert({ runId: 3, kind: 'score_drop', checks: ['title'] });
    const one = alert({ runId: 4, kind: 'score_drop' });
    const back = alert({ runId: 4, kind: 'recovered', read: true });
    const two = alert({ runId: 4, kind: 'score_drop' });
    const { cards, recoveries } = alertCards([single, one, back, two]);
    expect(recoveries.map((r) => r.id)).toEqual([back.id]);
    expect(cards.map((card) => (card.type === 'group' ? card.title : card.alert.id))).toEqual([single.id, 'Score dropped on 2 pages']);
  });
});
