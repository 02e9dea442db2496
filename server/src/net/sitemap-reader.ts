import { Parser } from 'htmlparser2';

/**
 * What a sitemap turned out to be, from its first element (or its first character: a text sitemap
 * is one URL a line, as the sitemaps protocol allows).
 */
export type SitemapKind = 'sitemap' | 'index' | 'text' | 'html' | 'other';

/** An entry's `<loc>` (or a text sitemap's line) longer than this is no URL worth keeping. */
const MAX_LOC_CHARS = 8 * 1024;

/**
 * How deep a sitemap's elements may nest: a page's `<loc>` is at 3, an extension's deepest
 * (`news:publication > news:name`) at 5. htmlparser2 keeps its open elements in an array it adds to
 * at the front, so each level costs the depth so far: 150,000 nested tags (552 bytes gzipped) held
 * the main thread 31.5 s (issue 44). Past this the reader stops, before the parser's stack grows.
 */
export const MAX_SITEMAP_DEPTH = 32;

/** Takes one `<loc>` of the sitemap (a page) or of the index (a sitemap); false: enough, stop reading. */
export type OnLoc = (loc: string) => boolean;

const localName = (name: string) => name.slice(name.lastIndexOf(':') + 1).toLowerCase();

/**
 * Reads a sitemap as it arrives, chunk by chunk, with htmlparser2's streaming XML tokenizer. Only
 * `urlset > url > loc` (pages) and `sitemapindex > sitemap > loc` (sitemaps) count, so an image's
 * or a video's `<image:loc>` is no page. Safe on hostile XML: htmlparser2 processes no DTD, so a
 * declared entity (billion laughs, an external one) is never expanded or fetched, only the five
 * XML entities and character references are decoded; what it holds is bounded by what it is fed,
 * which the fetcher caps (10 MB a sitemap), and a `<loc>` is kept only up to MAX_LOC_CHARS.
 */
export class SitemapReader {
  /** Null until the first element (or the first character of a text sitemap) tells. */
  kind: SitemapKind | null = null;
  /** The first element's name, for saying what a document that is no sitemap is. */
  rootName: string | null = null;
  /** It nested elements deeper than MAX_SITEMAP_DEPTH: read no further, what came before kept. */
  tooDeep = false;
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser: Parser;
  private depth = 0;
  /** The local names of the elements open at depths 1 and 2 (the root and its child). */
  private readonly outer: string[] = [];
  private loc: string | null = null;
  private stopped = false;
  private started = false;
  private line = '';

  constructor(private readonly onLoc: OnLoc) {
    this.parser = new Parser(
      {
        onopentag: (name) => this.open(name),
        onclosetag: () => this.close(),
        ontext: (text) => {
          if (this.loc !== null && this.loc.length <= MAX_LOC_CHARS) this.loc += text;
        },
      },
      { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
    );
  }

  /** Feeds the next chunk of the body; false once reading more is of no use (not a sitemap, or enough). */
  write(chunk: Buffer): boolean {
    if (this.stopped) return false;
    const text = this.decoder.decode(chunk, { stream: true });
    this.feed(text);
    return !this.stopped;
  }

  /** The body has ended. */
  end(): void {
    if (this.stopped) return;
    this.feed(this.decoder.decode());
    if (this.kind === 'text') this.takeLine();
    else if (this.kind !== null) this.parser.end();
    this.stopped = true;
  }

  private feed(text: string): void {
    if (text === '' || this.stopped) return;
    if (!this.started) {
      const trimmed = text.replace(/^[\uFEFF\s]+/, '');
      if (trimmed === '') return;
      this.started = true;
      text = trimmed;
      if (!text.startsWith('<')) this.kind = 'text';
    }
    if (this.kind === 'text') this.readLines(text);
    else this.parser.write(text);
  }

  private readLines(text: string): void {
    let start = 0;
    for (let newline = text.indexOf('\n', start); newline !== -1 && !this.stopped; newline = text.indexOf('\n', start)) {
      this.append(text.slice(start, newline));
      this.takeLine();
      start = newline + 1;
    }
    if (!this.stopped) this.append(text.slice(start));
  }

  private append(part: string): void {
    // A line too long to be a URL is kept only as far as tells that it is too long.
    if (this.line.length <= MAX_LOC_CHARS) this.line += part.slice(0, MAX_LOC_CHARS + 1);
  }

  private takeLine(): void {
    const url = this.line.trim();
    this.line = '';
    if (url !== '' && url.length <= MAX_LOC_CHARS && !this.onLoc(url)) this.stop();
  }

  private open(name: string): void {
    if (this.stopped) return;
    this.depth += 1;
    if (this.depth > MAX_SITEMAP_DEPTH) {
      this.tooDeep = true;
      return this.stop();
    }
    const local = localName(name);
    if (this.depth === 1 && this.kind === null) {
      this.rootName = name;
      this.kind = local === 'urlset' ? 'sitemap' : local === 'sitemapindex' ? 'index' : local === 'html' ? 'html' : 'other';
      if (this.kind === 'html' || this.kind === 'other') return this.stop();
    }
    if (this.depth <= 2) this.outer[this.depth - 1] = local;
    const entry = this.kind === 'sitemap' ? 'url' : 'sitemap';
    if (this.depth === 3 && local === 'loc' && this.outer[1] === entry) this.loc = '';
  }

  private close(): void {
    if (this.stopped) return;
    if (this.depth === 3 && this.loc !== null) {
      const loc = this.loc.trim();
      this.loc = null;
      if (loc !== '' && loc.length <= MAX_LOC_CHARS && !this.onLoc(loc)) this.stop();
    }
    this.depth = Math.max(0, this.depth - 1);
  }

  private stop(): void {
    this.stopped = true;
    this.parser.pause();
  }
}
