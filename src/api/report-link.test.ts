import { describe, expect, it } from 'vitest';
import { reportPageAddress } from './report-link';

describe('reportPageAddress', () => {
  it('takes the page_url the service sends', () => {
    expect(reportPageAddress({ id: 7, pageUrl: 'https://reports.example/r/7' }, 'https://api.example')).toBe(
      'https://reports.example/r/7',
    );
  });

  it('falls back to {Base URL}/reports/{id}, the service’s own pattern', () => {
    expect(reportPageAddress({ id: 7, pageUrl: null }, 'https://api.example/')).toBe(
      'https://api.example/reports/7',
    );
  });

  it('knows none with neither (the same origin, whose /reports/{id} is the dashboard’s own page)', () => {
    expect(reportPageAddress({ id: 7, pageUrl: null }, '')).toBeNull();
  });
});
