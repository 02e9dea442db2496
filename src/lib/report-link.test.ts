import { afterEach, describe, expect, it } from 'vitest';
import {
  readReportPageTemplate,
  reportPageAddress,
  reportPageTemplateProblem,
  saveReportPageTemplate,
} from './report-link';

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

  it('lets the Settings template override both, and ignores one that is not an address', () => {
    const report = { id: 7, pageUrl: 'https://reports.example/r/7' };
    expect(reportPageAddress(report, 'https://api.example', 'https://share.example/report/{id}')).toBe(
      'https://share.example/report/7',
    );
    expect(reportPageAddress(report, 'https://api.example', 'javascript:alert({id})')).toBe(
      'https://reports.example/r/7',
    );
  });
});

describe('the Report page address template', () => {
  afterEach(() => localStorage.clear());

  it('needs {id} and an http(s) address', () => {
    expect(reportPageTemplateProblem('')).toBeNull();
    expect(reportPageTemplateProblem('https://share.example/r/{id}')).toBeNull();
    expect(reportPageTemplateProblem('https://share.example/r/')).toMatch(/Put \{id\}/);
    expect(reportPageTemplateProblem('javascript:alert({id})')).toMatch(/https:\/\//);
    expect(reportPageTemplateProblem('share.example/{id}')).toMatch(/https:\/\//);
  });

  it('is kept on this device, and forgotten when emptied', () => {
    saveReportPageTemplate('https://share.example/r/{id}');
    expect(readReportPageTemplate()).toBe('https://share.example/r/{id}');
    saveReportPageTemplate('');
    expect(readReportPageTemplate()).toBe('');
  });
});
