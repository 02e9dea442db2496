import type { ProjectRecord, ReportRecord } from '../storage/types';

/** A report as the contract returns it: the password only as a flag. */
export function reportBody(report: ReportRecord) {
  return {
    id: report.id,
    url: report.url,
    project: report.project,
    privacy: report.privacy,
    password: report.hasPassword,
    result: report.result,
    score: report.score,
    results: report.results,
    generated_at: report.generatedAt,
    created_at: report.createdAt,
    updated_at: report.updatedAt,
  };
}

export function projectBody(project: ProjectRecord) {
  return { project: project.project, reports: project.reports, created_at: project.createdAt };
}
