// The alerts of a page, by cause: the alerts one project run raised for the same check become one
// card ("Title newly failing on 5 pages"), as do those of one run of the same kind with no check
// ("Score dropped on 3 pages"); every other alert is a card of its own; recoveries are apart. An
// alert that names no run (a person's refresh, or a server that does not say) is always alone.
import type { AlertKind } from '@/contract/values';
import type { Alert } from '@/api/watch';
import { checkName } from '@/checks/check-info';

export interface AlertGroup {
  type: 'group';
  /** Unique on the page: the run and the cause. */
  key: string;
  runId: number;
  /** The check that newly fails, or null for a group of one kind. */
  check: string | null;
  kind: AlertKind;
  title: string;
  /** The names of the other checks that newly fail on every page of the group. */
  alsoFailing: string[];
  /** Newest first. */
  alerts: Alert[];
}

export type AlertCard = AlertGroup | { type: 'alert'; alert: Alert };

const KIND_WORDS: Record<AlertKind, string> = {
  result_worse: 'Result worse',
  score_drop: 'Score dropped',
  check_failing: 'Check failing',
  recovered: 'Recovered',
};

const pages = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'page' : 'pages'}`;

/** The check's name as the server gives it, else the catalogue's. */
function nameOf(alert: Alert, check: string): string {
  const i = alert.checks.indexOf(check);
  return (i >= 0 ? alert.checkNames?.[i] : undefined) ?? checkName(check);
}

/**
 * The cards of a page of alerts (newest first): a group where one run raised at least two alerts
 * for the same cause, each alert in the first (largest) group it belongs to; and the recoveries.
 */
export function alertCards(items: readonly Alert[]): { cards: AlertCard[]; recoveries: Alert[] } {
  const recoveries = items.filter((alert) => alert.kind === 'recovered');
  const worse = items.filter((alert) => alert.kind !== 'recovered');
  const candidates = new Map<string, Omit<AlertGroup, 'title' | 'alsoFailing'>>();
  for (const alert of worse) {
    if (alert.runId === null) continue;
    const causes: (string | null)[] = alert.checks.length > 0 ? alert.checks : [null];
    for (const check of causes) {
      const kind: AlertKind = check === null ? (alert.kind ?? 'score_drop') : 'check_failing';
      const key = `${alert.runId}:${check === null ? `kind:${kind}` : `check:${check}`}`;
      const group = candidates.get(key) ?? { type: 'group' as const, key, runId: alert.runId, check, kind, alerts: [] };
      group.alerts.push(alert);
      candidates.set(key, group);
    }
  }
  // The largest causes first, so that an alert with several checks goes to the one most pages share.
  const ordered = [...candidates.values()].filter((group) => group.alerts.length >= 2).sort((a, b) => b.alerts.length - a.alerts.length);
  const placed = new Set<number>();
  const groups: AlertGroup[] = [];
  for (const candidate of ordered) {
    const alerts = candidate.alerts.filter((alert) => !placed.has(alert.id));
    if (alerts.length < 2) continue;
    for (const alert of alerts) placed.add(alert.id);
    const first = alerts[0]!;
    const title =
      candidate.check === null
        ? `${KIND_WORDS[candidate.kind]} on ${pages(alerts.length)}`
        : `${nameOf(first, candidate.check)} newly failing on ${pages(alerts.length)}`;
    const shared = first.checks.filter((check) => check !== candidate.check && alerts.every((alert) => alert.checks.includes(check)));
    groups.push({ ...candidate, alerts, title, alsoFailing: shared.map((check) => nameOf(first, check)) });
  }
  // Cards in the order of their newest alert, as the list is.
  const position = new Map(worse.map((alert, i) => [alert.id, i]));
  const cards: (AlertCard & { at: number })[] = [
    ...groups.map((group) => ({ ...group, at: position.get(group.alerts[0]!.id)! })),
    ...worse.filter((alert) => !placed.has(alert.id)).map((alert) => ({ type: 'alert' as const, alert, at: position.get(alert.id)! })),
  ];
  cards.sort((a, b) => a.at - b.at);
  return { cards: cards.map(({ at: _at, ...card }) => card as AlertCard), recoveries };
}
