// What the lists, the Project filter and a project's health leave out while deletes are held.
import { afterEach, describe, expect, it } from 'vitest';
import type { Page, Project } from '@/contract/domain';
import type { DeleteTarget } from './hidden-rows';
import { hiddenRows, publishHeld } from './hidden-rows';
import { healthWithout } from './project-health';

const report = (id: number, project: string, result?: 'good' | 'decent' | 'bad' | null): DeleteTarget => ({
  kind: 'report',
  id,
  url: `https://${project}/${id}`,
  project,
  result,
});

const projects = (...rows: [string, number | null][]): Page<Project> => ({
  items: rows.map(([name, reports]) => ({ name, reports, createdAt: null })),
  meta: { currentPage: 1, lastPage: 1, perPage: 100, total: rows.length, from: 1, to: rows.length },
});

afterEach(() => publishHeld([]));

describe('Rows held for deletion', () => {
  it('count fewer in their projects, and a project whose every report is held is not listed', () => {
    publishHeld([{ targets: [report(1, 'shop.example', 'bad'), report(2, 'blog.example', 'good')] }]);
    const page = hiddenRows().selectProjects!(projects(['shop.example', 3], ['blog.example', 1], ['docs.example', null]));
    expect(page.items.map((project) => [project.name, project.reports])).toEqual([
      ['shop.example', 2],
      ['docs.example', null],
    ]);
    expect(page.meta.total).toBe(2);
    expect(hiddenRows().heldResults.get('shop.example')).toEqual(['bad']);
  });

  it('leave a project’s health by their results; one of unknown result out of the unknown ones', () => {
    const health = { total: 10, counts: { good: 5, decent: 2, bad: 1 }, unknown: 2 };
    expect(healthWithout(health, ['good', 'bad', null])).toEqual({
      total: 7,
      counts: { good: 4, decent: 2, bad: 0 },
      unknown: 1,
    });
    expect(healthWithout(health, [undefined, undefined])).toEqual({ ...health, total: 8, unknown: 0 });
    expect(healthWithout({ total: 4, counts: null, unknown: 0 }, ['good'])).toEqual({ total: 3, counts: null, unknown: 0 });
    expect(healthWithout(health, [])).toBe(health);
  });
});
