import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { fetchedPage } from '../../../test/server/fetched-page';
import { checkPage } from './check-page';

/** What a reader sees, as the checks first computed it: a pruned copy of the body, collapsed. */
function referenceText(html: string): string {
  const $ = load(html);
  const body = $('body').clone();
  body.find('script, style, noscript, template, svg').remove();
  return body.text().replace(/\s+/g, ' ').trim();
}

function checksOf(html: string) {
  return checkPage(fetchedPage(html, 'https://shop.example/'));
}

const PAGES: [string, string][] = [
  ['white space across nodes', '<body>\n  <p> Trail\t<b> running </b>\u00a0 shoes </p>\n\n<p>\r\nfor   rocks</p>  </body>'],
  [
    'content that is not rendered',
    '<title>Shoes</title><body>seen <script>var hidden = "script";</script><style>.a{}</style>' +
      '<noscript>no script</noscript><template><p>template</p></template><svg><text>drawing</text></svg>' +
      '<!-- a comment --> end <math><style>maths</style>x</math></body>',
  ],
  ['no body tag', '<title>Bare page</title>Just words, no tags around them.'],
  ['only white space', '<body> \n\t <div>  </div> </body>'],
  ['text foster-parented out of a table', '<table>before <tr><td>cell</td> more</tr> tail</table><p> after'],
];

describe('the checks that read the visible text', () => {
  it.each(PAGES)('count words and text the same as a pruned copy of the body: %s', (_name, html) => {
    const text = referenceText(html);
    const checks = checksOf(html);
    expect(checks.content_length?.value).toBe(text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0);
    expect(checks.text_html_ratio?.value).toBe(Math.round((text.length / html.length) * 1000) / 10);
  });
});
