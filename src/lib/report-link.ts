// Where a report's public page is. In order: the address template set in Settings (`{id}` for the
// report's number), the address the service gives (`page_url`, the reference server's), and the
// service's own pattern under its base URL.
import type { Report } from '@/contract/domain';

const TEMPLATE_KEY = 'webpage-report.report-page-template';

/** The Report page address template saved on this device; '' when none is. */
export function readReportPageTemplate(): string {
  try {
    return localStorage.getItem(TEMPLATE_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Saves the template ('' forgets it). Throws when the browser refuses site data. */
export function saveReportPageTemplate(template: string): void {
  if (template === '') localStorage.removeItem(TEMPLATE_KEY);
  else localStorage.setItem(TEMPLATE_KEY, template);
}

/** Why a template cannot be used, or null when it can ('' is no template). */
export function reportPageTemplateProblem(template: string): string | null {
  if (template === '') return null;
  if (!template.includes('{id}'))
    return 'Put {id} where the report’s number goes, e.g. https://reports.example.com/r/{id}.';
  const example = template.replaceAll('{id}', '1');
  if (!URL.canParse(example) || !['http:', 'https:'].includes(new URL(example).protocol)) {
    return 'Give a full address starting with https:// or http://.';
  }
  return null;
}

/** The report page's address, or null when neither Settings, the service nor its base URL says. */
export function reportPageAddress(
  report: Pick<Report, 'id' | 'pageUrl'>,
  baseUrl: string,
  template = '',
): string | null {
  const id = encodeURIComponent(String(report.id));
  if (template !== '' && reportPageTemplateProblem(template) === null) return template.replaceAll('{id}', id);
  if (report.pageUrl !== null) return report.pageUrl;
  const base = baseUrl.trim().replace(/\/+$/, '');
  if (!/^https?:\/\//i.test(base)) return null;
  return `${base}/reports/${id}`;
}
