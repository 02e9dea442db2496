// What a report keeps of a page's evidence: every check's `value` and `errors` hold at most a fixed
// number of items and characters, saying how much was left out, and a report's results at most
// REPORT_MAX_BYTES of JSON whatever the page. Without it a 5 MB page whose title is 4.9 million
// control characters stored 29 MB of JSON per report, and lists of such reports could not be sent.
import type { Check, JsonValue } from './check-result';

export interface EvidenceLimits {
  /** Characters (UTF-16 code units) of one string, marker included. */
  chars: number;
  /** Items of one list, marker included. */
  items: number;
  /** Fields of one object, marker included. */
  fields: number;
}

/** The bounds every check gets; tighter ones follow only while a report is over REPORT_MAX_BYTES. */
export const EVIDENCE_LIMITS: readonly EvidenceLimits[] = [
  { chars: 300, items: 20, fields: 40 },
  { chars: 120, items: 10, fields: 20 },
  { chars: 40, items: 5, fields: 10 },
  { chars: 16, items: 2, fields: 5 },
];

/** The most JSON (UTF-8 bytes) a report's results take. */
export const REPORT_MAX_BYTES = 64 * 1024;

/** Nesting kept; deeper values become a marker (no check nests this deep). */
const MAX_DEPTH = 6;

/** The field an object's marker goes under. */
export const MORE_FIELD = '…';

/** The end of a string cut short: `… (4,899,700 more characters)`. */
export function moreCharacters(n: number): string {
  return `… (${n.toLocaleString('en')} more characters)`;
}

/** The last item of a list cut short: `… (180 more)`. */
export function moreItems(n: number): string {
  return `… (${n.toLocaleString('en')} more)`;
}

/** `items` as a list of at most `max` entries, its last one saying how many were left out. */
export function listed<T extends JsonValue>(items: readonly T[], max: number = EVIDENCE_LIMITS[0]!.items): JsonValue[] {
  if (items.length <= max) return [...items];
  return [...items.slice(0, max - 1), moreItems(items.length - (max - 1))];
}

function cutString(text: string, max: number): string {
  if (text.length <= max) return text;
  // Sized for the longest marker this string could need, so the result is never over `max`.
  let head = Math.max(0, max - moreCharacters(text.length).length);
  // Never half a surrogate pair.
  const last = text.charCodeAt(head - 1);
  if (head > 0 && last >= 0xd800 && last <= 0xdbff) head--;
  return text.slice(0, head) + moreCharacters(text.length - head);
}

/**
 * `value` within `limits`: strings, lists and objects over them cut, each cut saying how much went.
 * Idempotent: a value already within the limits comes back equal.
 */
export function boundValue(value: JsonValue, limits: EvidenceLimits = EVIDENCE_LIMITS[0]!, depth = 0): JsonValue {
  if (typeof value === 'string') return cutString(value, limits.chars);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? [moreItems(value.length)] : { [MORE_FIELD]: `${Object.keys(value).length} more` };
  if (Array.isArray(value)) {
    const kept = value.length <= limits.items ? value : value.slice(0, limits.items - 1);
    const bounded = kept.map((item) => boundValue(item, limits, depth + 1));
    if (kept.length < value.length) bounded.push(moreItems(value.length - kept.length));
    return bounded;
  }
  const entries = Object.entries(value);
  const kept = entries.length <= limits.fields ? entries : entries.slice(0, limits.fields - 1);
  const bounded: Record<string, JsonValue> = {};
  for (const [key, inner] of kept) bounded[cutString(key, limits.chars)] = boundValue(inner, limits, depth + 1);
  if (kept.length < entries.length) bounded[MORE_FIELD] = `${(entries.length - kept.length).toLocaleString('en')} more`;
  return bounded;
}

function boundCheck(check: Check, limits: EvidenceLimits): Check {
  const bounded: Check = { passed: check.passed, importance: check.importance, value: boundValue(check.value, limits) };
  if (check.errors) bounded.errors = boundValue(check.errors, limits) as Record<string, JsonValue>;
  return bounded;
}

/** The JSON size of a value, UTF-8 bytes. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

/**
 * A report's results within the bounds: each check's evidence by the first EVIDENCE_LIMITS, tighter
 * ones while the whole is over `maxBytes`; as a last resort the largest values are replaced by a
 * note. `passed`, `importance` and the errors' keys are always kept, so the score and the problems
 * shown are those of the full evidence.
 */
export function boundResults(results: Record<string, Check>, maxBytes: number = REPORT_MAX_BYTES): Record<string, Check> {
  let bounded: Record<string, Check> = {};
  for (const limits of EVIDENCE_LIMITS) {
    bounded = {};
    for (const [key, check] of Object.entries(results)) bounded[key] = boundCheck(check, limits);
    if (jsonBytes(bounded) <= maxBytes) return bounded;
  }
  // Only a page with more checks than there are could get here; what is kept stays truthful.
  for (const [key, check] of Object.entries(bounded).sort(([, a], [, b]) => jsonBytes(b) - jsonBytes(a))) {
    bounded[key] = { ...check, value: 'Evidence left out: too large.' };
    if (check.errors) bounded[key].errors = Object.fromEntries(Object.keys(check.errors).map((reason) => [reason, true]));
    if (jsonBytes(bounded) <= maxBytes) break;
  }
  return bounded;
}
