// The browser's Intl formats the dates: a date library was about 3 KB gzip of every list's first visit.
// English, like the rest of the interface, whatever the browser's language.
const relativeFormat = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
const absoluteFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

// Each unit with how many of it make the next one: up to 59 seconds, then 1 minute, … 11 months, then years.
const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 365.25 / 12],
  ['month', 12],
];

// The texts made so far, by unit and amount: a list shows the same few ("3 days ago") many times, and
// Intl's format is the slow part of a date's render. A few hundred at most (amounts stay below each
// unit's next), years aside.
const relativeTexts = new Map<string, string>();

function relativeText(amount: number, unit: Intl.RelativeTimeFormatUnit): string {
  const key = `${amount} ${unit}`;
  let text = relativeTexts.get(key);
  if (text === undefined) {
    text = relativeFormat.format(amount, unit);
    if (relativeTexts.size < 2000) relativeTexts.set(key, text);
  }
  return text;
}

/**
 * "3 days ago", "in 2 hours": how long ago `date` was, from `now` (a Date or epoch ms), in the largest
 * unit that fits.
 */
export function formatRelative(date: Date, now: Date | number = Date.now()): string {
  let amount = (date.getTime() - (typeof now === 'number' ? now : now.getTime())) / 1000;
  for (const [unit, next] of UNITS) {
    const rounded = roundHalfAway(amount);
    if (Math.abs(rounded) < next) return relativeText(rounded, unit);
    amount /= next;
  }
  return relativeText(roundHalfAway(amount), 'year');
}

// Past and future alike: 1.5 hours ago is 2 hours ago (Math.round would make it 1).
function roundHalfAway(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/** "14 Mar 2025, 09:05" in the browser's time zone: the exact moment, for tooltips and details. */
export function formatAbsolute(date: Date): string {
  return absoluteFormat.format(date);
}

const momentFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** "14 Mar 2025, 09:05:30": to the second, where two moments may share a minute (a report's runs). */
export function formatMoment(date: Date): string {
  return momentFormat.format(date);
}

const clockFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** "09:05:30" in the browser's time zone: when a wait of seconds or minutes ends. */
export function formatClock(epochMs: number): string {
  return clockFormat.format(new Date(epochMs));
}
