// What the formats do with hostile strings from a service: XML that stays well-formed, terminal
// text without escape sequences.
import { describe, expect, it } from 'vitest';
import { xmlAttribute, xmlText } from './format-junit';
import { terminalSafe } from './format-text';

describe('escaping', () => {
  it('escapes markup and quotes for XML, and replaces what XML cannot hold', () => {
    expect(xmlAttribute(`<script>alert("a&b")</script>'`)).toBe('&lt;script&gt;alert(&quot;a&amp;b&quot;)&lt;/script&gt;&apos;');
    expect(xmlText('a\u0000b\u001bc\ud800d\ud83d\ude00e\tf\ng')).toBe('a\ufffdb\ufffdc\ufffdd\ud83d\ude00e\tf\ng');
    expect(xmlAttribute('line\nbreak\ttab')).toBe('line&#10;break&#9;tab');
  });

  it('shows control characters and bidi overrides in terminal text as escapes', () => {
    expect(terminalSafe('https://x.test/\u001b[31mred\u202eevil')).toBe('https://x.test/\\u{1b}[31mred\\u{202e}evil');
  });
});
