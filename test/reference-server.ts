// What the dashboard's tests use of the reference server. Tests under src/ import it from here, so
// that nothing under src/ imports server/ (a lint rule holds that on paths).
export { createAnalyser, AnalysisError } from '../server/src/analysis/analyse';
export type { Analyser, Analysis } from '../server/src/analysis/analyse';
