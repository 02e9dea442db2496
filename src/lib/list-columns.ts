// Which optional columns of the reports table show, and whether its rows are compact: kept on this
// device (localStorage, versioned). What is not what this version wrote is ignored: every column shows.
import { useSyncExternalStore } from 'react';
import { deviceStore } from './device-store';

export const REPORT_COLUMNS = ['project', 'result', 'score', 'trend', 'privacy', 'generated', 'created'] as const;
export type ReportColumn = (typeof REPORT_COLUMNS)[number];
export const REPORT_COLUMN_LABELS: Record<ReportColumn, string> = {
  project: 'Project',
  result: 'Result',
  score: 'Score',
  trend: 'Trend',
  privacy: 'Privacy',
  generated: 'Generated',
  created: 'Created',
};

/** What a table shows: the hidden columns (so that a column added later shows) and the row height. */
export interface ColumnChoice {
  hidden: ReportColumn[];
  compact: boolean;
}

export const ALL_COLUMNS: ColumnChoice = { hidden: [], compact: false };

const VERSION = 1;

/**
 * A choice as stored (here and in saved views), or null when it is not one: unknown column names
 * are dropped, not trusted. Checked by hand rather than with a zod schema: this is read on every
 * first visit of the reports list, and the schema's share of zod cost about 1 KB gzip there.
 */
export function readColumnChoice(value: unknown): ColumnChoice | null {
  if (typeof value !== 'object' || value === null) return null;
  const { hidden, compact } = value as Record<string, unknown>;
  if (!Array.isArray(hidden) || !hidden.every((name) => typeof name === 'string') || typeof compact !== 'boolean')
    return null;
  return { hidden: REPORT_COLUMNS.filter((column) => hidden.includes(column)), compact };
}

const store = deviceStore('wrs.report-columns');
let cached: { text: string | null; value: ColumnChoice } = { text: null, value: ALL_COLUMNS };

/** The choice on this device; the same object until it changes (for useSyncExternalStore). */
export function loadColumns(): ColumnChoice {
  const text = store.readText();
  if (text === cached.text) return cached.value;
  let value = ALL_COLUMNS;
  if (text !== null) {
    try {
      const stored = JSON.parse(text) as unknown;
      const version = typeof stored === 'object' && stored !== null && (stored as { version?: unknown }).version;
      value = (version === VERSION && readColumnChoice(stored)) || ALL_COLUMNS;
    } catch {
      value = ALL_COLUMNS;
    }
  }
  cached = { text, value };
  return value;
}

/** Keeps the choice on this device; false when the device refused (storage full or blocked). */
export function saveColumns(choice: ColumnChoice): boolean {
  const hidden = REPORT_COLUMNS.filter((column) => choice.hidden.includes(column));
  const saved = store.writeText(JSON.stringify({ version: VERSION, hidden, compact: choice.compact }));
  // Not kept, this visit still shows what was chosen.
  if (!saved) cached = { text: store.readText(), value: { hidden, compact: choice.compact } };
  store.notify();
  return saved;
}

/** The reports table's columns on this device, following changes made here and in other tabs. */
export function useColumns(): ColumnChoice {
  return useSyncExternalStore(store.subscribe, loadColumns, () => ALL_COLUMNS);
}

/** Whether `column` shows under `choice`. */
export function shows(choice: ColumnChoice, column: ReportColumn): boolean {
  return !choice.hidden.includes(column);
}
