/** A report id from the path, or null for anything that cannot be one (answered 404). */
export function parseId(value: string): number | null {
  if (!/^[1-9]\d{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}
