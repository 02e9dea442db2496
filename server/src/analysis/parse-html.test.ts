import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../paths';
import { parseHtml } from './parse-html';

interface TreeNode {
  type: string;
  name?: string;
  attribs?: Record<string, string>;
  data?: string;
  children?: TreeNode[];
}

/** Every node with what the checks can read of it: type, name, attributes, text. */
function describeTree(nodes: TreeNode[]): unknown[] {
  return nodes.map((node) => ({
    type: node.type,
    ...('name' in node ? { name: node.name, attribs: { ...node.attribs } } : {}),
    ...('data' in node ? { data: node.data } : {}),
    ...(node.children ? { children: describeTree(node.children) } : {}),
  }));
}

const fixturePages = readdirSync(FIXTURES_DIR, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.(html|php)$/.test(file))
  .map((file) => [file, readFileSync(join(FIXTURES_DIR, file), 'utf8')] as const);

const AWKWARD: [string, string][] = [
  ['no html, head or body tags', '<title>Bare</title><p>Text and a@example.com'],
  ['text foster-parented out of a table', '<table>before <tr><td>cell</td>more text</tr> tail</table><p>after'],
  [
    'hidden content',
    '<body>seen <script>var x = "a script";</script><style>.a{}</style><noscript>ns</noscript>' +
      '<template><p>template</p></template><svg><title>drawing</title><text>svg text</text></svg> end</body>',
  ],
  ['references, CRLF and NUL', '<p>caf&eacute; &amp; &#x1F600; &notanentity; &lt;b&gt;</p>\r\n<p>a\r\nb\u0000c</p>'],
  [
    'long attribute values and comments',
    `<a href="https://example.com/${'x'.repeat(5000)}">long</a><img src="data:image/png;base64,${'A'.repeat(50_000)}">` +
      `<body class="late" data-x="${'y'.repeat(40)}"><!-- ${'comment '.repeat(1000)} -->`,
  ],
  ['a long run of words', `<pre>${'word '.repeat(100_000)}</pre>`],
  ['long tokens', `<script>${'a'.repeat(100_000)}</script><p>${'b'.repeat(100_000)}</p>`],
  ['misnested tags', '<p>one<p>two<div>three<span>four</div>five<b>bold<i>both</b>italic</i>'],
];

describe('parseHtml', () => {
  it.each([...fixturePages, ...AWKWARD])('builds the same document as cheerio.load: %s', (_name, html) => {
    const ours = parseHtml(html);
    const theirs = load(html);
    expect(describeTree(ours.root().toArray() as TreeNode[])).toEqual(describeTree(theirs.root().toArray() as TreeNode[]));
    expect(ours.html()).toBe(theirs.html());
  });
});
