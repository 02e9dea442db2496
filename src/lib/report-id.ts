/** The id in a report's path, or null when it cannot be a report's (the service's ids are positive integers). */
export function parseReportId(raw: string | undefined): number | null {
  if (raw === undefined || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
