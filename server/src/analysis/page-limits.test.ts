import { describe, expect, it } from 'vitest';
import { fetchedPage } from '../../../test/server/fetched-page';
import { AnalysisError } from '../net/analysis-error';
import { checkPage } from './check-page';
import { checkTags, PAGE_LIMITS } from './page-limits';
import { parseHtml } from './parse-html';

/** The AnalysisError message `work` fails with, and how long it took. */
function refusal(work: () => unknown): { message: string; ms: number } {
  const started = performance.now();
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(AnalysisError);
    return { message: (error as Error).message, ms: performance.now() - started };
  }
  throw new Error('not refused');
}

const PREFIX = 'The page is too large or too complex to analyse: ';

describe('page limits', () => {
  it('refuses 1 MB of unclosed <div> at once, where parse5 alone takes minutes', () => {
    const { message, ms } = refusal(() => parseHtml('<div>'.repeat(200_000)));
    expect(message).toBe(`${PREFIX}it has more than 150,000 elements.`);
    expect(ms).toBeLessThan(2000);
    // Under the element limit, the nesting stops it.
    expect(refusal(() => parseHtml('<div>'.repeat(20_000))).message).toBe(`${PREFIX}its elements nest more than 512 deep.`);
  });

  it('refuses elements nested deeper than 512, and takes 512', () => {
    const nested = (depth: number) => `<!doctype html><html><body>${'<div>'.repeat(depth)}x${'</div>'.repeat(depth)}</body></html>`;
    expect(refusal(() => parseHtml(nested(18_000))).message).toBe(`${PREFIX}its elements nest more than 512 deep.`);
    // html and body are two levels of the 512.
    expect(parseHtml(nested(510))('div').length).toBe(510);
  });

  it('refuses an element with more than 1,000 attributes before parsing it, and takes 1,000', () => {
    const tag = (n: number) => `<div ${Array.from({ length: n }, (_, i) => `a${i}="${i}"`).join(' ')}>x</div>`;
    const { message, ms } = refusal(() => parseHtml(tag(200_000)));
    expect(message).toBe(`${PREFIX}an element has more than 1,000 attributes.`);
    expect(ms).toBeLessThan(2000);
    expect(Object.keys(parseHtml(tag(1000))('div').attr() ?? {})).toHaveLength(1000);
  });

  it('counts tags as the HTML tokenizer sees them: not in comments, scripts, styles or quoted values', () => {
    const many = (n: number) => Array.from({ length: n }, () => '<b').join(' ');
    const limits = { maxAttributes: 10, maxElements: 3 };
    expect(() => checkTags(`<!-- ${many(20)} --><script>if (a <b && c) { ${many(20)} }</script><p title="${many(20)}">x</p>`, limits)).not.toThrow();
    expect(() => checkTags('<p><b><i><u>', limits)).toThrow('more than 3 elements');
    expect(() => checkTags(`<p ${'x '.repeat(11)}>`, limits)).toThrow('more than 10 attributes');
    expect(() => checkTags(`<p ${'x=1 '.repeat(10)}/>`, limits)).not.toThrow();
  });

  it('is what the page checks answer with, for a page of 200,000 headings', () => {
    const page = fetchedPage(`<!doctype html><html><body>${'<h2>Heading</h2>'.repeat(200_000)}</body></html>`);
    expect(refusal(() => checkPage(page)).message).toBe(`${PREFIX}it has more than ${PAGE_LIMITS.maxElements.toLocaleString('en')} elements.`);
  });
});
