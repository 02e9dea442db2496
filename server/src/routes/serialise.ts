import type { Context } from 'hono';
import { publicPageUrl } from '../public-page/page-url';
import type { ProjectLabels } from '../storage/client-storage';
import type { ProjectRecord, ReportRecord, RunRecord } from '../storage/types';

// Report bodies are written as text rather than built as objects for c.json(): the results map
// is kilobytes of stored JSON per report, and parsing it only to serialise it again was most of
// the time a list request took. Every other value goes through JSON.stringify, so the text is
// exactly what JSON.stringify would give for the same report with its results parsed.

/** A report as the contract returns it, as JSON text: the password only as a flag; its public page at `pageOrigin`. */
export function reportJson(report: ReportRecord, pageOrigin: string): string {
  return (
    `{"id":${JSON.stringify(report.id)},"url":${JSON.stringify(report.url)},"project":${JSON.stringify(report.project)}` +
    `,"privacy":${JSON.stringify(report.privacy)},"password":${JSON.stringify(report.hasPassword)}` +
    `,"result":${JSON.stringify(report.result)},"score":${JSON.stringify(report.score)},"results":${report.resultsJson}` +
    `,"generated_at":${JSON.stringify(report.generatedAt)},"created_at":${JSON.stringify(report.createdAt)}` +
    `,"updated_at":${JSON.stringify(report.updatedAt)},"page_url":${JSON.stringify(publicPageUrl(pageOrigin, report.id))}` +
    `,"runs":${JSON.stringify(report.runs)},"recent_scores":${JSON.stringify(report.recentScores)}` +
    `,"gone_since":${JSON.stringify(report.goneSince)}}`
  );
}

/** One kept analysis of a report, as JSON text. */
export function runJson(run: RunRecord): string {
  return (
    `{"generated_at":${JSON.stringify(run.generatedAt)},"score":${JSON.stringify(run.score)}` +
    `,"result":${JSON.stringify(run.result)},"results":${run.resultsJson}}`
  );
}

/** `{data: report, status}` as c.json() would answer it. */
export function reportResponse(c: Context, report: ReportRecord, status: 200 | 201, pageOrigin: string): Response {
  return jsonText(c, `{"data":${reportJson(report, pageOrigin)},"status":${status}}`, status);
}

/** About what the connection takes in one write: items are sent in pieces of this size or a little over. */
const LIST_PIECE_CHARS = 64 * 1024;

/**
 * `{data: [items], links, meta, status: 200}` of items written as JSON text (reportJson, runJson), the
 * envelope coming from pageEnvelope(). Sent in pieces of about 64 KB as the connection takes them,
 * never joined into one string: 100 reports of up to 64 KB each are megabytes, and six such lists at
 * once were a good part of the server's memory. Not an item at a time either: each piece goes through
 * the web streams of compress() and the Node adapter, and 102 small ones cost more than the
 * compression itself (docs/benchmarks.md, issue 27).
 */
export function listResponse(c: Context, items: string[], envelope: { links: object; meta: object }): Response {
  const rest = JSON.stringify({ links: envelope.links, meta: envelope.meta, status: 200 });
  const encoder = new TextEncoder();
  let next = 0;
  let piece = '{"data":[';
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      while (next < items.length && piece.length < LIST_PIECE_CHARS) {
        piece += (next === 0 ? '' : ',') + (items[next] ?? '');
        next++;
      }
      if (next === items.length) {
        controller.enqueue(encoder.encode(`${piece}],${rest.slice(1)}`));
        controller.close();
      } else {
        controller.enqueue(encoder.encode(piece));
        piece = '';
      }
    },
  });
  return c.body(body, 200, { 'Content-Type': 'application/json' });
}

function jsonText(c: Context, body: string, status: 200 | 201): Response {
  return c.body(body, status, { 'Content-Type': 'application/json' });
}

/** A project as the contract returns it, with its label and client (wave 4). */
export function projectBody(project: ProjectRecord & ProjectLabels) {
  return {
    project: project.project,
    reports: project.reports,
    created_at: project.createdAt,
    label: project.label,
    client: project.client && { id: project.client.id, name: project.client.name },
  };
}
