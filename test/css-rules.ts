// What a rule of one of our CSS files declares, for tests: CSS files are not processed in vitest
// (a CSS module's classes are empty there), so tests that compare our classes with the inline
// styles a Mantine component would set read the file itself.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The declarations of the rule whose selector is exactly `selector` in `file` (a path relative to
 * the project's root, where vitest runs), as sorted `property: value` strings, whitespace collapsed. Throws if there
 * is no such rule, so a renamed class fails the test that looks for it.
 */
export function ruleDeclarations(file: string, selector: string): string[] {
  const css = readFileSync(resolve(process.cwd(), file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  for (const match of css.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
    const selectors = (match[1] ?? '').split(',').map((s) => s.trim().replace(/\s+/g, ' '));
    if (!selectors.includes(selector)) continue;
    return (match[2] ?? '')
      .split(/;(?![^(]*\))/)
      .map((declaration) => declaration.trim().replace(/\s+/g, ' ').replace(/\s*:\s*/, ': '))
      .filter(Boolean)
      .sort();
  }
  throw new Error(`No rule "${selector}" in ${file}.`);
}

/** A style attribute's declarations, as ruleDeclarations gives them. */
export function styleDeclarations(style: string | null): string[] {
  return (style ?? '')
    .split(/;(?![^(]*\))/)
    .map((declaration) => declaration.trim().replace(/\s+/g, ' ').replace(/\s*:\s*/, ': '))
    .filter(Boolean)
    .sort();
}
