// What a share link shows (api-contract.md, Share links): `report:<id>`, `project:<name>` or
// `compare:<id>:<run generated_at>:<run generated_at>`, written and read here for both the dashboard
// and the server.

// Kept here rather than in values.ts, which the dashboard's entry carries: only the pages that share need them.
/** A share link's label, at most; its life in days, at most (api-contract.md, Share links). */
export const SHARE_LABEL_MAX = 100;
export const SHARE_EXPIRES_MAX_DAYS = 365;
/** The dashboard's choices of a share link's life in days (null: never), as ui-contract.md lists them. */
export const SHARE_EXPIRY_CHOICES = [1, 7, 30, 365, null] as const;

/** A report, the comparison of two of its runs (by generated_at, older first), or a project. */
export type ShareTarget =
  | { kind: 'report'; reportId: number }
  | { kind: 'compare'; reportId: number; before: string; after: string }
  | { kind: 'project'; project: string };

// The contract's timestamp: ISO 8601 UTC; any number of fractional digits is read.
const TIME = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z`;
const ID = String.raw`[1-9]\d{0,15}`;
const REPORT = new RegExp(`^report:(${ID})$`);
const COMPARE = new RegExp(`^compare:(${ID}):(${TIME}):(${TIME})$`);

/** The contract's form of a time: 6 fractional digits, UTC. */
function sixDigits(time: string): string | null {
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) return null;
  const fraction = /\.(\d+)Z$/.exec(time)?.[1] ?? '';
  return `${date.toISOString().slice(0, 19)}.${fraction.padEnd(6, '0').slice(0, 6)}Z`;
}

/** The target a `target` value names; null when it names none (or a comparison of one run with itself). */
export function parseShareTarget(value: string): ShareTarget | null {
  const report = REPORT.exec(value);
  if (report) return safeId(report[1]!) === null ? null : { kind: 'report', reportId: Number(report[1]) };
  const compare = COMPARE.exec(value);
  if (compare) {
    const reportId = safeId(compare[1]!);
    const [a, b] = [sixDigits(compare[2]!), sixDigits(compare[3]!)];
    if (reportId === null || a === null || b === null || a === b) return null;
    return a < b ? { kind: 'compare', reportId, before: a, after: b } : { kind: 'compare', reportId, before: b, after: a };
  }
  if (value.startsWith('project:')) {
    const project = value.slice('project:'.length);
    return project.length > 0 && !/\p{Cc}/u.test(project) ? { kind: 'project', project } : null;
  }
  return null;
}

function safeId(text: string): number | null {
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

/** The `target` value of a target. */
export function shareTargetText(target: ShareTarget): string {
  if (target.kind === 'report') return `report:${target.reportId}`;
  if (target.kind === 'compare') return `compare:${target.reportId}:${target.before}:${target.after}`;
  return `project:${target.project}`;
}
