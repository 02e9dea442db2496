/** `1 report`, `1,200 reports`: a count with its noun. */
export function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}
