// The overview extension's own routes (api-contract.md, Overview, labels and clients): a project's
// health by day, and the whole account at a glance. `GET /projects?with=health` is the projects
// list's (projects.ts), with the same points.
import { Hono } from 'hono';
import { describeRoute, validator } from 'hono-openapi';
import { projectHealthQuerySchema, projectParamSchema } from '../../../src/contract/request-schemas';
import { strictOverviewEnvelope, strictProjectHealthEnvelope } from '../../../src/contract/strict-schemas';
import { OVERVIEW_WEEK_ITEMS } from '../../../src/contract/values';
import type { AppDeps } from './app-deps';
import { errorResponse } from '../http/errors';
import { errors, KEYED_ERRORS, ok } from '../http/openapi';
import { notFoundUnlessValid, unprocessableUnlessValid } from '../http/validation';
import type { HealthPoint, ProjectHealthRecord, ScoreDrop } from '../storage/health-storage';
import type { ProblemRecord } from '../storage/problem-storage';
import { scheduleJson } from './watch';
import { problemJson } from './problems';

/** The week of GET /overview, and of new_7d and fixed_7d (as GET /problems counts them). */
const WEEK_DAYS = 7;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

export function healthPointJson(point: HealthPoint) {
  return {
    date: point.date,
    average_score: point.averageScore,
    good: point.good,
    decent: point.decent,
    bad: point.bad,
  };
}

/** What `with=health` adds to a project of the list. */
export function projectHealthJson(health: ProjectHealthRecord) {
  const schedule = health.schedule && scheduleJson(health.schedule);
  return {
    good: health.good,
    decent: health.decent,
    bad: health.bad,
    unknown: health.unknown,
    average_score: health.averageScore,
    unread_alerts: health.unreadAlerts,
    next_run_at: schedule?.next_run_at ?? null,
    last_run_at: health.lastRunAt,
    trend: health.trend.map(healthPointJson),
  };
}

/** The problems with the most pages by `count`, at most OVERVIEW_WEEK_ITEMS; ties by impact, then check key. */
function mostBy(problems: readonly ProblemRecord[], count: (problem: ProblemRecord) => number) {
  return problems
    .filter((problem) => count(problem) > 0)
    .sort((a, b) => count(b) - count(a) || b.impact - a.impact || (a.check < b.check ? -1 : 1))
    .slice(0, OVERVIEW_WEEK_ITEMS)
    .map(problemJson);
}

/** Under /projects: `/{project}/health`. */
export function projectHealthRouter(deps: Required<AppDeps>) {
  const { storage, now } = deps;
  return new Hono().get(
    '/:project/health',
    describeRoute({
      operationId: 'showProjectHealth',
      summary: 'A project’s health by day (an extension)',
      description:
        'One point a day (UTC), oldest first, today the last, days without a change included: the project’s reports ' +
        'as each one’s newest run as of the end of that day had them (a report not analysed yet that day is not ' +
        'counted), and their average score, rounded to one decimal (null when none is counted); `deploy`: the newest ' +
        'deploy made before the end of that day (deploys), null when none was.',
      tags: ['Overview'],
      responses: {
        200: ok('The project’s daily points.', strictProjectHealthEnvelope),
        ...errors(...KEYED_ERRORS, 404, 422),
      },
    }),
    validator('param', projectParamSchema, notFoundUnlessValid),
    validator('query', projectHealthQuerySchema, unprocessableUnlessValid),
    async (c) => {
      const { project } = c.req.valid('param');
      const { days } = c.req.valid('query');
      const points = await storage.health.projectHealth(project, days, now());
      if (!points) return errorResponse(c, 404);
      // Each day names the newest deploy made before its end (the chart marks where that changes).
      const first = points[0]!.date;
      const end = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().replace('Z', '000Z');
      const deploys = await storage.runLog.deploysAround(project, `${first}T00:00:00.000000Z`, end(points.at(-1)!.date));
      let next = 0;
      let before: (typeof deploys)[number] | null = null;
      const withDeploys = points.map((point) => {
        const until = end(point.date);
        while (next < deploys.length && deploys[next]!.at < until) before = deploys[next++]!;
        return {
          ...healthPointJson(point),
          deploy: before && { id: before.id, label: before.label, url: before.url, at: before.at },
        };
      });
      return c.json({ data: { project, days, points: withDeploys }, status: 200 as const }, 200);
    },
  );
}

/** The week's problems and drops of GET /overview, as of the minute `minute`. */
interface Week {
  stamp: string;
  minute: number;
  problems: ProblemRecord[];
  drops: ScoreDrop[];
}

/** /overview. */
export function overviewRouter(deps: Required<AppDeps>) {
  const { storage, now } = deps;
  // The problems across every report are most of an overview's time (60 ms at 100,000 reports in
  // 500 projects): kept, with the drops, while no report and no check setting changed and the
  // minute is the same (the week counted from its start), as the reports list keeps its counts.
  let week: Week | undefined;
  return new Hono().get(
    '/',
    describeRoute({
      operationId: 'showOverview',
      summary: 'Every project at a glance: totals, and the week’s problems and drops (an extension)',
      description:
        `Totals over every project; open_problems as GET /problems counts them (state open). The week: the ${OVERVIEW_WEEK_ITEMS} ` +
        `problems with the most pages newly failing (new_7d) and fixed (fixed_7d) in ${WEEK_DAYS} days, among the checks ` +
        `still failing somewhere, and the ${OVERVIEW_WEEK_ITEMS} reports whose score fell most in ${WEEK_DAYS} days: ` +
        '`before` the highest score a run of theirs fell from in that time, `after` their score now (ties by report id).',
      tags: ['Overview'],
      responses: { 200: ok('The overview.', strictOverviewEnvelope), ...errors(...KEYED_ERRORS) },
    }),
    async (c) => {
      const minute = Math.floor(now().getTime() / MINUTE_MS) * MINUTE_MS;
      const stamp = await storage.health.changeStamp();
      const since = new Date(minute - WEEK_DAYS * DAY_MS);
      if (week?.stamp !== stamp || week.minute !== minute) {
        const problems = await storage.problems.listProblems({ state: 'open', since });
        week = { stamp, minute, problems, drops: await storage.health.drops(since, OVERVIEW_WEEK_ITEMS) };
      }
      const { problems, drops } = week;
      const totals = await storage.health.totals();
      return c.json(
        {
          data: {
            totals: {
              projects: totals.projects,
              reports: totals.reports,
              good: totals.good,
              decent: totals.decent,
              bad: totals.bad,
              unknown: totals.unknown,
              unread_alerts: totals.unreadAlerts,
              open_problems: problems.length,
            },
            week: {
              new_problems: mostBy(problems, (problem) => problem.new7d),
              fixed_problems: mostBy(problems, (problem) => problem.fixed7d),
              biggest_drops: drops.map((drop) => ({
                report_id: drop.reportId,
                url: drop.url,
                project: drop.project,
                before: drop.before,
                after: drop.after,
              })),
            },
          },
          status: 200 as const,
        },
        200,
      );
    },
  );
}
