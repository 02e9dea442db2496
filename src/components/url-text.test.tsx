import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UrlText } from './url-text';

describe('UrlText', () => {
  it('offers a line break after each /, ?, & and =, never inside "//" or a word', () => {
    const url = 'https://shop.example/c/contact.html?a=1&b=2';
    const { container } = render(<UrlText url={url} />);
    expect(container.textContent).toBe(url);
    expect(container.innerHTML).toBe(
      'https://<wbr>shop.example/<wbr>c/<wbr>contact<wbr>.html?<wbr>a=<wbr>1&amp;<wbr>b=<wbr>2',
    );
  });

  it('offers breaks between the words of a long file name and before its extension, not inside a word', () => {
    const url = 'https://old-site.example/archive/press_release_2019_45.html#top';
    const { container } = render(<UrlText url={url} />);
    expect(container.textContent).toBe(url);
    expect(container.innerHTML).toBe(
      'https://<wbr>old-<wbr>site.example/<wbr>archive/<wbr>press_<wbr>release_<wbr>2019_<wbr>45<wbr>.html#<wbr>top',
    );
  });

  it('renders markup in a URL as text', () => {
    const url = 'https://x.example/<img src=x onerror=alert(1)>';
    const { container } = render(<UrlText url={url} />);
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toBe(url);
  });
});
