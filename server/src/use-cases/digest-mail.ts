// A digest as e-mail: subject, plain text and HTML. Every value goes through Hono's `html`
// template, which escapes it: a page's URL or a project's name is text, never markup. Inline styles
// only, as mail programs want, and no script or remote resource: the branding's logo travels inside
// the message (cid:), so no mail program has to fetch an image to show it.
import { html } from 'hono/html';
import type { MailAttachment } from '../net/mailer';
import { logoFileName } from '../public-page/branding';
import type { BrandingRecord, LogoImage } from '../storage/branding-storage';
import type { DigestJson } from './digest';

type Html = ReturnType<typeof html>;

export interface DigestMail {
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

/** The branding on top of the e-mail: the stored branding and its logo's bytes (null without one). */
export interface MailBranding {
  branding: BrandingRecord;
  logo: LogoImage | null;
}

const LOGO_CID = 'logo@digest';
const DEFAULT_ACCENT = '#1c7ed6';

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const day = (time: string) => `${dateFormat.format(new Date(time))} UTC`;
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

const ALERT_WORDS: Record<string, string> = {
  result_worse: 'result worse',
  score_drop: 'score dropped',
  check_failing: 'check failing',
  recovered: 'recovered',
};

/** A line of the summary per project. */
function projectLine(project: DigestJson['projects'][number]): string {
  const parts = [
    project.new_problems > 0 ? plural(project.new_problems, 'new problem') : null,
    project.fixed_problems > 0 ? plural(project.fixed_problems, 'fixed problem') : null,
    project.drops > 0 ? plural(project.drops, 'drop') : null,
    project.alerts > 0 ? plural(project.alerts, 'alert') : null,
    project.new_pages > 0 ? plural(project.new_pages, 'new page') : null,
    project.gone_pages > 0 ? plural(project.gone_pages, 'gone page') : null,
  ].filter((part): part is string => part !== null);
  return parts.join(', ');
}

interface Section {
  title: string;
  /** Every line as text, and its link when there is one. */
  lines: { text: string; href: string | null }[];
  /** How many there were in all, when more than listed. */
  total: number;
}

function sectionsOf(digest: DigestJson, origin: string | null): Section[] {
  const report = (id: number) => (origin ? `${origin}/reports/${id}` : null);
  const problems = origin ? `${origin}/problems` : null;
  const sum = (key: 'alerts' | 'new_pages' | 'gone_pages') => digest.projects.reduce((total, project) => total + project[key], 0);
  return [
    {
      title: 'New problems',
      lines: digest.new_problems.map((p) => ({ text: `${p.name} (${p.project}): ${plural(p.pages, 'page')}`, href: problems })),
      total: digest.new_problems.length,
    },
    {
      title: 'Fixed problems',
      lines: digest.fixed_problems.map((p) => ({ text: `${p.name} (${p.project}): ${plural(p.pages, 'page')}`, href: problems })),
      total: digest.fixed_problems.length,
    },
    {
      title: 'Drops',
      lines: digest.drops.map((d) => ({ text: `${d.url} (${d.project}): ${d.before} → ${d.after}`, href: report(d.report_id) })),
      total: digest.drops.length,
    },
    {
      title: 'Alerts',
      lines: digest.alerts.map((a) => ({
        text: `${a.url} (${a.project}): ${ALERT_WORDS[a.kind] ?? a.kind}, ${a.before_score} → ${a.after_score}`,
        href: report(a.report_id),
      })),
      total: sum('alerts'),
    },
    { title: 'New pages', lines: digest.new_pages.map((p) => ({ text: `${p.url} (${p.project})`, href: report(p.report_id) })), total: sum('new_pages') },
    { title: 'Gone pages', lines: digest.gone_pages.map((p) => ({ text: `${p.url} (${p.project})`, href: report(p.report_id) })), total: sum('gone_pages') },
  ].filter((section) => section.lines.length > 0);
}

/**
 * The branding on top (api-contract.md, Share links and branding): the logo and the name over a bar
 * in the accent colour, as on the public pages; the product's name where nothing is set.
 */
function brandingHeader(brand: MailBranding | null): Html {
  const branding = brand?.branding ?? null;
  const accent = branding?.accent && /^#[0-9a-f]{6}$/i.test(branding.accent) ? branding.accent : DEFAULT_ACCENT;
  const logo = brand?.logo
    ? html`<img src="cid:${LOGO_CID}" alt="${branding?.name === null ? 'Logo' : ''}" height="32" style="height:32px;width:auto;vertical-align:middle;margin-right:8px">`
    : '';
  const name = branding?.name ?? (brand?.logo ? '' : 'Webpage reports');
  return html`<tr><td style="padding:16px 24px;border-bottom:3px solid ${accent};font-size:18px;font-weight:bold">${logo}${name}</td></tr>`;
}

/** The e-mail of a digest; `origin` is the dashboard's, for the links (none without it); `brand` on top. */
export async function digestMail(digest: DigestJson, origin: string | null, brand: MailBranding | null = null): Promise<DigestMail> {
  const window = `${day(digest.since)} – ${day(digest.until)}`;
  const span = `from ${day(digest.since)} to ${day(digest.until)}`;
  const quiet = digest.projects.length === 0;
  const subject = quiet
    ? `Digest: no changes (${window})`
    : `Digest: ${[
        digest.new_problems.length > 0 ? plural(digest.new_problems.reduce((n, p) => n + p.pages, 0), 'new problem') : null,
        digest.drops.length > 0 ? plural(digest.drops.length, 'drop') : null,
        digest.alerts.length > 0 ? plural(digest.projects.reduce((n, p) => n + p.alerts, 0), 'alert') : null,
      ]
        .filter(Boolean)
        .join(', ') || 'changes'} (${window})`;
  const sections = sectionsOf(digest, origin);

  const textLines = [`What changed ${span}.`, ''];
  if (quiet) textLines.push('Nothing changed in any project.');
  else {
    textLines.push('Projects:');
    for (const project of digest.projects) textLines.push(`- ${project.project}: ${projectLine(project)}`);
  }
  for (const section of sections) {
    textLines.push('', `${section.title}:`);
    for (const line of section.lines) textLines.push(`- ${line.text}${line.href ? ` <${line.href}>` : ''}`);
    if (section.total > section.lines.length) textLines.push(`- and ${(section.total - section.lines.length).toLocaleString('en')} more`);
  }
  if (origin) textLines.push('', `Open the dashboard: ${origin}/`);
  textLines.push('', 'Digests are set in the dashboard’s Settings > Digests.');

  const cell = 'padding:4px 24px;font-size:14px;line-height:1.5';
  const body = html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${subject}</title></head>
<body style="margin:0;padding:0;background:#f1f3f5;color:#212529;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:640px;margin:0 auto;background:#ffffff">
${brandingHeader(brand)}
<tr><td style="${cell};padding-top:16px"><h1 style="font-size:20px;margin:0">Digest</h1><p style="margin:4px 0 0;color:#495057">What changed ${span}.</p></td></tr>
${
  quiet
    ? html`<tr><td style="${cell}"><p>Nothing changed in any project.</p></td></tr>`
    : html`<tr><td style="${cell}"><h2 style="font-size:16px;margin:16px 0 4px">Projects</h2><ul style="margin:0;padding-left:20px">${digest.projects.map(
        (project) => html`<li><strong>${project.project}</strong>: ${projectLine(project)}</li>`,
      )}</ul></td></tr>`
}
${sections.map(
  (section) => html`<tr><td style="${cell}"><h2 style="font-size:16px;margin:16px 0 4px">${section.title}</h2><ul style="margin:0;padding-left:20px;word-break:break-word">${section.lines.map(
    (line) => html`<li>${line.href ? html`<a href="${line.href}" style="color:#1864ab">${line.text}</a>` : line.text}</li>`,
  )}${section.total > section.lines.length ? html`<li>and ${(section.total - section.lines.length).toLocaleString('en')} more</li>` : ''}</ul></td></tr>`,
)}
<tr><td style="${cell};padding-bottom:24px;color:#495057;font-size:12px">${origin ? html`<p><a href="${origin}/" style="color:#1864ab">Open the dashboard</a></p>` : ''}<p>Digests are set in the dashboard’s Settings &gt; Digests.</p></td></tr>
</table>
</body>
</html>`;
  const attachments = brand?.logo
    ? [{ filename: logoFileName(brand.logo.type), contentType: brand.logo.type, content: brand.logo.bytes, cid: LOGO_CID }]
    : [];
  return { subject, text: `${textLines.join('\n')}\n`, html: (await body).toString(), attachments };
}
