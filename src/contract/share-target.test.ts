import { describe, expect, it } from 'vitest';
import { parseShareTarget, shareTargetText } from './share-target';

describe('share link targets', () => {
  it('reads a report, a project (any name without control characters) and a comparison, older run first', () => {
    expect(parseShareTarget('report:42')).toEqual({ kind: 'report', reportId: 42 });
    expect(parseShareTarget('project:shop.example:8080')).toEqual({ kind: 'project', project: 'shop.example:8080' });
    expect(parseShareTarget('compare:7:2026-11-24T10:01:00.000000Z:2026-11-24T10:00:00Z')).toEqual({
      kind: 'compare',
      reportId: 7,
      before: '2026-11-24T10:00:00.000000Z',
      after: '2026-11-24T10:01:00.000000Z',
    });
  });

  it('names nothing for anything else', () => {
    for (const value of ['', 'report:', 'report:0', 'report:01', 'report:1x', 'page:1', 'project:', 'project:a\u0000b', 'compare:1:2026-11-24T10:00:00Z', 'compare:1:2026-11-24T10:00:00Z:2026-11-24T10:00:00.000Z', 'compare:1:yesterday:today', 'report:99999999999999999']) {
      expect(parseShareTarget(value), value).toBeNull();
    }
  });

  it('writes what it reads', () => {
    for (const value of ['report:3', 'project:blog.example', 'compare:3:2026-11-24T10:00:00.000000Z:2026-11-25T10:00:00.123456Z']) {
      expect(shareTargetText(parseShareTarget(value)!)).toBe(value);
    }
  });
});
