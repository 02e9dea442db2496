// What a page may ask of the analysis before it is refused as too large or too complex: parse5
// spends time in proportion to the open elements for each new one, and to the attributes already
// read for each new attribute, so a page of nested tags or of one tag with 200,000 attributes
// would keep a worker for minutes; elements and their nesting also set the memory and the depth
// of every walk over the document.
import { AnalysisError } from '../net/analysis-error';

export const PAGE_LIMITS = {
  /** Elements in the document (the densest 5 MB page of bench:analysis has about 109,000). */
  maxElements: 150_000,
  /** Nesting of elements; Chromium's parser also stops nesting at 512. */
  maxDepth: 512,
  /** Attributes of one element. */
  maxAttributes: 1_000,
} as const;

export type PageLimits = { [K in keyof typeof PAGE_LIMITS]: number };

/** Starts every message of a page refused for its size or complexity. */
export const TOO_COMPLEX_PREFIX = 'The page is too large or too complex to analyse';

/** The 422 reason for a page over one of the limits: `reason` says which, in words. */
export function tooComplex(reason: string): AnalysisError {
  return new AnalysisError(`${TOO_COMPLEX_PREFIX}: ${reason}.`);
}

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

/**
 * Refuses a page with an element of more than `maxAttributes` attributes before parse5 reads it (its
 * duplicate check makes one such tag quadratic), and one with more than `maxElements` start tags
 * before a parse that would be refused at its end. One linear pass that follows the HTML tokenizer
 * closely enough for counting: start tags, their quoted and unquoted values, comments, and the raw
 * text of scripts and styles, which holds no tags.
 */
export function checkTags(html: string, limits: Pick<PageLimits, 'maxAttributes' | 'maxElements'> = PAGE_LIMITS): void {
  const { maxAttributes, maxElements } = limits;
  const length = html.length;
  let tags = 0;
  let at = html.indexOf('<');
  while (at !== -1 && at < length - 1) {
    const next = html.charCodeAt(at + 1);
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4);
      if (end === -1) return;
      at = html.indexOf('<', end + 3);
      continue;
    }
    if (!isAsciiLetter(next)) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    tags++;
    if (tags > maxElements) throw tooComplex(`it has more than ${maxElements.toLocaleString('en')} elements`);
    // The tag's name.
    let i = at + 1;
    while (i < length && !isSpace(html.charCodeAt(i)) && html[i] !== '/' && html[i] !== '>') i++;
    const name = html.slice(at + 1, i).toLowerCase();
    // Its attributes: a name, then perhaps `=` and a value.
    let attributes = 0;
    while (i < length) {
      const code = html.charCodeAt(i);
      if (code === 62 /* > */) break;
      if (isSpace(code) || code === 47 /* / */) {
        i++;
        continue;
      }
      attributes++;
      if (attributes > maxAttributes) throw tooComplex(`an element has more than ${maxAttributes.toLocaleString('en')} attributes`);
      while (i < length && !isSpace(html.charCodeAt(i)) && html[i] !== '/' && html[i] !== '>' && html[i] !== '=') i++;
      while (i < length && isSpace(html.charCodeAt(i))) i++;
      if (html[i] !== '=') continue;
      i++;
      while (i < length && isSpace(html.charCodeAt(i))) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const end = html.indexOf(quote, i + 1);
        if (end === -1) return;
        i = end + 1;
      } else {
        while (i < length && !isSpace(html.charCodeAt(i)) && html[i] !== '>') i++;
      }
    }
    if (RAW_TEXT.has(name)) {
      const close = indexOfCloseTag(html, name, i);
      if (close === -1) return;
      at = close;
      continue;
    }
    at = html.indexOf('<', i);
  }
}

/** Where `</name` next starts (any case) from `from`, or -1. */
function indexOfCloseTag(html: string, name: string, from: number): number {
  const pattern = new RegExp(`</${name}`, 'ig');
  pattern.lastIndex = from;
  return pattern.exec(html)?.index ?? -1;
}
