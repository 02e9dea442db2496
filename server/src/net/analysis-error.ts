/**
 * A reason the page could not be analysed, in words meant for the person who asked.
 * The API shows `message` as the 422 error on `url`; it must never carry a stack trace,
 * an address the user did not type, or internal detail.
 */
export class AnalysisError extends Error {
  override name = 'AnalysisError';
}
