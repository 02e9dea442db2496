// An alert as the API answers it (GET /alerts) and as webhooks deliver it (`data` of alert.raised).
import { checkName } from '../../../src/checks/check-info';
import type { AlertRecord } from '../storage/watch-storage';

export function alertJson(alert: AlertRecord) {
  const side = (s: AlertRecord['before']) => ({ score: s.score, result: s.result, generated_at: s.generatedAt });
  return {
    id: alert.id,
    report_id: alert.reportId,
    url: alert.url,
    project: alert.project,
    kind: alert.kind,
    before: side(alert.before),
    after: side(alert.after),
    checks: alert.checks,
    check_names: alert.checks.map(checkName),
    created_at: alert.createdAt,
    read: alert.read,
    run_id: alert.runId,
    deploy: alert.deploy ?? null,
  };
}
