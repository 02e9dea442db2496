/**
 * A reason the page could not be analysed, in words meant for the person who asked.
 * The API shows `message` as the 422 error on `url`; it must never carry a stack trace,
 * an address the user did not type, or internal detail.
 */
export class AnalysisError extends Error {
  override name = 'AnalysisError';

  /** `status`: the HTTP status the page answered with, when that was the reason (a 404, a 500). */
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}
