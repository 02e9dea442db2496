import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Check, Report } from '@/contract/domain';
import { REPORT_CSV_COLUMNS, reportsCsv, reportsCsvFileName } from './report-csv';

const HEADER =
  'id,url,project,result,score,privacy,password,generated_at,created_at,failed_high,failed_medium,failed_low';

function check(passed: boolean, importance: Check['importance']): Check {
  return { passed, importance, value: null, errors: null };
}

function report(overrides: Partial<Report> = {}): Report {
  return {
    id: 42,
    url: 'https://example.com/pricing',
    project: 'example.com',
    privacy: 0,
    hasPassword: false,
    result: 'good',
    score: 87,
    results: {
      title: check(true, 'high'),
      headings: check(false, 'high'),
      load_time: check(false, 'medium'),
      favicon: check(false, 'low'),
      language: check(false, 'low'),
      charset: check(true, 'low'),
    },
    generatedAt: new Date('2026-11-20T10:15:30.000Z'),
    createdAt: new Date('2026-11-20T10:15:29.000Z'),
    updatedAt: new Date('2026-11-20T10:15:30.000Z'),
    pageUrl: null,
    runs: null,
    recentScores: null,
    ...overrides,
  };
}

/** The lines of a file, without its BOM; the last element is what follows the final CRLF. */
function lines(csv: string): string[] {
  return csv.slice(1).split('\r\n');
}

describe('reportsCsv', () => {
  it('starts with a UTF-8 BOM and the contract’s header, and ends every line with CRLF', () => {
    const csv = reportsCsv([report(), report({ id: 43 })]);

    expect([...new TextEncoder().encode(csv).slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(REPORT_CSV_COLUMNS.join(',')).toBe(HEADER);
    expect(lines(csv)).toEqual([
      HEADER,
      '42,https://example.com/pricing,example.com,good,87,public,no,2026-11-20T10:15:30.000Z,2026-11-20T10:15:29.000Z,1,1,2',
      '43,https://example.com/pricing,example.com,good,87,public,no,2026-11-20T10:15:30.000Z,2026-11-20T10:15:29.000Z,1,1,2',
      '',
    ]);
    // No bare LF anywhere: every line break is CRLF.
    expect(csv.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('is the header alone when there is no report', () => {
    expect(reportsCsv([])).toBe(`\uFEFF${HEADER}\r\n`);
  });

  it('quotes a cell with a comma or a quote, doubling the quote (RFC 4180)', () => {
    const csv = reportsCsv([report({ url: 'https://example.com/a,b?q="x"' })]);

    expect(lines(csv)[1]).toMatch(/^42,"https:\/\/example\.com\/a,b\?q=""x""",example\.com,/);
  });

  it('keeps a non-ASCII URL as it is, encoded as UTF-8', () => {
    const url = 'https://bücher.example/straße';
    const csv = reportsCsv([report({ url, project: 'bücher.example' })]);

    expect(lines(csv)[1]).toMatch(/^42,https:\/\/bücher\.example\/straße,bücher\.example,/);
    const bytes = new TextEncoder().encode(csv);
    // ü is C3 BC and ß is C3 9F in UTF-8.
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ');
    expect(hex).toContain('62 c3 bc 63 68 65 72'); // "bücher"
    expect(hex).toContain('73 74 72 61 c3 9f 65'); // "straße"
  });

  it.each([
    ['=', '=HYPERLINK("https://evil.example","x")', '"\'=HYPERLINK(""https://evil.example"",""x"")"'],
    ['+', '+1+1', '"\'+1+1"'],
    ['-', '-2+3', '"\'-2+3"'],
    ['@', '@SUM(A1)', '"\'@SUM(A1)"'],
    ['tab', '\t=1', '"\'\t=1"'],
    ['CR', '\r=1', '"\'\r=1"'],
    // Papa's own pattern lets these through: a line break after the first character.
    ['= with a line break', '=1+1\nmore', '"\'=1+1\nmore"'],
    ['CR with a line break', '\r=1\n', '"\'\r=1\n"'],
  ])('makes a cell starting with %s inert with a leading quote mark', (_, url, cell) => {
    const csv = reportsCsv([report({ url, project: url })]);

    expect(csv).toContain(`\r\n42,${cell},${cell},good,`);
  });

  it('leaves a cell alone when the character is not at its start', () => {
    const csv = reportsCsv([report({ url: 'https://example.com/?a=1+2-3@x' })]);

    expect(lines(csv)[1]).toMatch(/^42,https:\/\/example\.com\/\?a=1\+2-3@x,example\.com,/);
  });

  it('writes numbers as numbers: a score is never escaped, whatever its sign', () => {
    const csv = reportsCsv([report({ score: -5 }), report({ score: 49.5 })]);

    expect(lines(csv)[1]).toMatch(/,good,-5,public,/);
    expect(lines(csv)[2]).toMatch(/,good,49\.5,public,/);
  });

  it('writes privacy and password as words', () => {
    const csv = reportsCsv([
      report({ id: 1, privacy: 0, hasPassword: false }),
      report({ id: 2, privacy: 1, hasPassword: false }),
      report({ id: 3, privacy: 2, hasPassword: true }),
    ]);

    const cells = lines(csv)
      .slice(1, 4)
      .map((line) => line.split(',').slice(5, 7));
    expect(cells).toEqual([
      ['public', 'no'],
      ['private', 'no'],
      ['password', 'yes'],
    ]);
  });

  it('leaves a cell empty for every value the deployment did not send', () => {
    const csv = reportsCsv([
      report({
        result: null,
        score: null,
        hasPassword: null,
        results: {},
        generatedAt: null,
        createdAt: null,
      }),
    ]);

    expect(lines(csv)[1]).toBe('42,https://example.com/pricing,example.com,,,public,,,,,,');
  });

  it('counts the failed checks by importance, leaving out passed ones and unknown importances', () => {
    const csv = reportsCsv([
      report({
        results: {
          title: check(false, 'high'),
          headings: check(false, 'high'),
          meta_description: check(false, 'high'),
          robots: check(true, 'high'),
          load_time: check(true, 'medium'),
          mystery: check(false, null),
        },
      }),
      report({ results: { title: check(true, 'high') } }),
    ]);

    expect(lines(csv)[1]).toMatch(/,3,0,0$/);
    expect(lines(csv)[2]).toMatch(/,0,0,0$/);
  });

  it('reads back as the same cells with a CSV parser', () => {
    const awkward = 'https://example.com/"quoted",\r\nand more';
    const csv = reportsCsv([report({ url: awkward })]);

    const parsed = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[0]).toEqual([...REPORT_CSV_COLUMNS]);
    expect(parsed.data[1]?.[1]).toBe(awkward);
  });
});

describe('reportsCsvFileName', () => {
  it('names the file by the local date', () => {
    expect(reportsCsvFileName(new Date(2026, 10, 24, 23, 59))).toBe('reports-2026-11-24.csv');
    expect(reportsCsvFileName(new Date(2027, 0, 3, 0, 1))).toBe('reports-2027-01-03.csv');
  });

  it('names it by the local day where that is not the UTC day', () => {
    // Node applies a change of TZ at once; 23:30 UTC is already the next morning in Auckland.
    const zone = process.env.TZ;
    process.env.TZ = 'Pacific/Auckland';
    try {
      expect(reportsCsvFileName(new Date('2026-11-24T23:30:00Z'))).toBe('reports-2026-11-25.csv');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
