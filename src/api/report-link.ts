// Where the report's public page is: the address the service gives (`page_url`, the reference
// server's), or else the service's own pattern under its base URL.
import type { Report } from './schemas';

/** The report page's address, or null when neither the service nor its base URL says. */
export function reportPageAddress(report: Pick<Report, 'id' | 'pageUrl'>, baseUrl: string): string | null {
  if (report.pageUrl !== null) return report.pageUrl;
  const base = baseUrl.trim().replace(/\/+$/, '');
  if (!/^https?:\/\//i.test(base)) return null;
  return `${base}/reports/${encodeURIComponent(String(report.id))}`;
}
