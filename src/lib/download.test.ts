import { describe, expect, it, vi } from 'vitest';
import { downloadBlob } from '@/lib/download';

// Object URLs of the test environment stand in for the browser's; the spies go with restoreAllMocks.
function spyObjectUrls() {
  return {
    createObjectURL: vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:http://localhost/1'),
    revokeObjectURL: vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {}),
  };
}

describe('downloadBlob', () => {
  it('clicks a download link to the blob, leaves nothing in the page and revokes the URL later', () => {
    vi.useFakeTimers();
    const urls = spyObjectUrls();
    const clicked: { href: string; download: string; inDocument: boolean }[] = [];
    // jsdom does not implement following a link; the click is what a browser turns into a download.
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, inDocument: document.body.contains(this) });
    });
    const blob = new Blob(['a,b\r\n'], { type: 'text/csv' });

    downloadBlob(blob, 'reports-2026-11-24.csv');

    expect(urls.createObjectURL).toHaveBeenCalledWith(blob);
    expect(clicked).toEqual([
      { href: 'blob:http://localhost/1', download: 'reports-2026-11-24.csv', inDocument: true },
    ]);
    expect(document.querySelector('a')).toBeNull();
    expect(urls.revokeObjectURL).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(urls.revokeObjectURL).toHaveBeenCalledWith('blob:http://localhost/1');
  });
});
