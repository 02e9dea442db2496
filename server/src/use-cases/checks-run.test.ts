// The storage's list of the checks this server runs (what a report may lack) is the analysis' own.
import { describe, expect, it } from 'vitest';
import { IMPORTANCE_OF } from '../analysis/rules';
import { CHECKS_RUN } from '../storage/check-failures';

describe('CHECKS_RUN', () => {
  it('is every check the analysis weighs, no more', () => {
    expect([...CHECKS_RUN].sort()).toEqual(Object.keys(IMPORTANCE_OF).sort());
  });
});
