import { describe, expect, it } from 'vitest';
import { openPageHref } from './urls';

describe('openPageHref', () => {
  it.each([
    ['https://example.com/pricing', 'https://example.com/pricing'],
    ['http://example.com', 'http://example.com/'],
    ['HTTPS://Example.com/A?b=1#c', 'https://example.com/A?b=1#c'],
    ['  https://example.com/x  ', 'https://example.com/x'],
    ['example.com/pricing', 'https://example.com/pricing'],
    ['example.com', 'https://example.com/'],
    ['shop.example.com:8443/cart?id=1', 'https://shop.example.com:8443/cart?id=1'],
    ['localhost:8080/page', 'https://localhost:8080/page'],
    ['127.0.0.1/status', 'https://127.0.0.1/status'],
    ['bücher.de/katalog', 'https://xn--bcher-kva.de/katalog'],
    ['//example.com/x', 'https://example.com/x'],
  ])('%j opens %j', (raw, href) => {
    expect(openPageHref(raw)).toBe(href);
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript://example.com/%0Aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'mailto:someone@example.com',
    'ftp://example.com/file',
    'file:///etc/passwd',
    'vbscript:msgbox',
    'example',
    'not a url',
    '',
    'example.com/a b',
    '-example.com',
    'https://',
  ])('%j gets no link', (raw) => {
    expect(openPageHref(raw)).toBeNull();
  });
});
