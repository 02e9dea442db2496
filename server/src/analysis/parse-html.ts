// cheerio's own HTML parse (parse5, the browsers' algorithm), with text kept in flat strings.
import { load } from 'cheerio';
import type { CheerioAPI } from 'cheerio';
import { Tokenizer } from 'parse5';
import { adapter } from 'parse5-htmlparser2-tree-adapter';
import { checkTags, PAGE_LIMITS, tooComplex } from './page-limits';
import type { PageLimits } from './page-limits';

type TextNode = Parameters<typeof adapter.getTextNodeContent>[0];
/** A node of a parsed page, in an element or the document (domhandler's, which cheerio's types leave out). */
export type PageNode = Parameters<typeof adapter.getParentNode>[0];

/**
 * V8 joins two strings of 13 characters or more into a rope (a 32-byte ConsString) and copies
 * them into one flat string only when the result is read. parse5 builds every text node a token at a
 * time (`data += token`) and every long token, attribute value and comment a character at a time,
 * so a 5 MB article's document held 1.6 million ropes (52 MB) over 29 MB of words (a heap snapshot).
 * Reading a string flattens it in place, so its ropes and pieces become garbage.
 */
const ROPE_BYTES = 32;
const ROPE_MIN_LENGTH = 13;

// Read into a variable the compiler cannot prove unused, so the read that flattens is never dropped.
let _flattened = 0;
function flatten(text: string): string {
  if (text.length >= ROPE_MIN_LENGTH) _flattened ^= text.charCodeAt(0);
  return text;
}

/** Ropes a string built by parse5 may hold: one per character past the 12th, at worst. */
function ropesIn(text: string): number {
  return text.length >= ROPE_MIN_LENGTH ? text.length - ROPE_MIN_LENGTH + 1 : 0;
}

interface CharacterToken {
  type: unknown;
  chars: string;
  /** Ropes added since the token's text was last flattened (ours). */
  ropes?: number;
}

/**
 * parse5's tokenizer adds each character of a run to its token (`chars += ch`) until the run ends,
 * so a 4.9 million-character title was 4.9 million ropes (157 MB) before the tree adapter saw any of
 * it. Its characters go in unchanged, but the text is flattened as the adapter's is, once its ropes
 * would outweigh it: the title page then fits a worker's heap with room to spare (it needed over
 * 160 MB).
 */
function flattenLongCharacterTokens(): void {
  const prototype = Tokenizer.prototype as unknown as {
    _appendCharToCurrentCharacterToken(this: { currentCharacterToken: CharacterToken | null }, type: unknown, ch: string): void;
    flattening?: true;
  };
  if (prototype.flattening) return;
  prototype.flattening = true;
  const append = prototype._appendCharToCurrentCharacterToken;
  prototype._appendCharToCurrentCharacterToken = function (type, ch) {
    const token = this.currentCharacterToken;
    if (!token || token.type !== type) return append.call(this, type, ch);
    token.chars += ch;
    const ropes = (token.ropes ?? 0) + 1;
    if (ropes * ROPE_BYTES >= token.chars.length) {
      flatten(token.chars);
      token.ropes = 0;
    } else {
      token.ropes = ropes;
    }
  };
}
flattenLongCharacterTokens();

/**
 * The tree adapter cheerio uses by default, unchanged but for flattening: a text node once its
 * ropes (counted since the last flatten) would outweigh its text, so it stays within twice its
 * size and the copying to at most 64 bytes per character parsed; attribute values and comments
 * as they arrive.
 */
function flatTextAdapter(limits: PageLimits): typeof adapter {
  const ropes = new WeakMap<TextNode, number>();
  // Elements made, and each one's depth, so that a page past the limits stops the parse at once.
  let elements = 0;
  const depths = new WeakMap<PageNode, number>();
  const placed = (parent: PageNode, node: PageNode) => {
    if (!adapter.isElementNode(node)) return;
    const depth = (depths.get(parent) ?? 0) + 1;
    if (depth > limits.maxDepth) throw tooComplex(`its elements nest more than ${limits.maxDepth.toLocaleString('en')} deep`);
    depths.set(node, depth);
  };
  const appended = (node: PageNode | null | undefined, text: string) => {
    if (!node || !adapter.isTextNode(node)) return;
    const count = (ropes.get(node) ?? 0) + 1 + ropesIn(text);
    if (count * ROPE_BYTES >= node.data.length) {
      flatten(node.data);
      ropes.set(node, 0);
    } else {
      ropes.set(node, count);
    }
  };
  return {
    ...adapter,
    insertText(parent, text) {
      adapter.insertText(parent, text);
      appended(parent.children.at(-1), text);
    },
    // The text joins the node before `reference`, or becomes a new one there.
    insertTextBefore(parent, text, reference) {
      adapter.insertTextBefore(parent, text, reference);
      appended(reference.prev, text);
    },
    appendChild(parent, node) {
      placed(parent, node);
      adapter.appendChild(parent, node);
    },
    insertBefore(parent, node, reference) {
      placed(parent, node);
      adapter.insertBefore(parent, node, reference);
    },
    createElement(tagName, namespace, attributes) {
      elements++;
      if (elements > limits.maxElements) throw tooComplex(`it has more than ${limits.maxElements.toLocaleString('en')} elements`);
      for (const attribute of attributes) flatten(attribute.value);
      return adapter.createElement(tagName, namespace, attributes);
    },
    adoptAttributes(recipient, attributes) {
      for (const attribute of attributes) flatten(attribute.value);
      adapter.adoptAttributes(recipient, attributes);
    },
    createCommentNode: (data) => adapter.createCommentNode(flatten(data)),
  };
}

/**
 * Parses a whole HTML page as `cheerio.load(html)` does (same document), in a fraction of its memory.
 * A page over `limits` (page-limits.ts) is refused with an AnalysisError saying which.
 */
export function parseHtml(html: string, limits: PageLimits = PAGE_LIMITS): CheerioAPI {
  checkTags(html, limits);
  return load(html, { treeAdapter: flatTextAdapter(limits) });
}
