import { describe, expect, it } from 'vitest';
import { scoreChecks } from './score';

const high = (passed: boolean) => ({ passed, importance: 'high' as const });
const medium = (passed: boolean) => ({ passed, importance: 'medium' as const });
const low = (passed: boolean) => ({ passed, importance: 'low' as const });

describe('scoreChecks', () => {
  it('is 100 and good when everything passed', () => {
    expect(scoreChecks([high(true), medium(true), low(true)])).toEqual({ score: 100, result: 'good' });
  });

  it('weighs checks by importance: high 10, medium 5, low 2', () => {
    // 5 + 2 of 17 points
    expect(scoreChecks([high(false), medium(true), low(true)])).toEqual({ score: 41, result: 'bad' });
    // 10 + 2 of 17 points
    expect(scoreChecks([high(true), medium(false), low(true)])).toEqual({ score: 71, result: 'decent' });
    // 10 + 5 of 17 points
    expect(scoreChecks([high(true), medium(true), low(false)])).toEqual({ score: 88, result: 'good' });
  });

  it('rounds to a whole number and follows the contract thresholds', () => {
    // 8 of 10 points: exactly 80 is good
    expect(scoreChecks([...Array(4).fill(low(true)), low(false)])).toEqual({ score: 80, result: 'good' });
    // 1 of 2 checks of equal weight: 50 is decent
    expect(scoreChecks([medium(true), medium(false)])).toEqual({ score: 50, result: 'decent' });
    // 2 of 3 high checks: 66.67 rounds to 67
    expect(scoreChecks([high(true), high(true), high(false)])).toEqual({ score: 67, result: 'decent' });
    // 15 of 19 points: 78.9 rounds to 79, still decent
    expect(scoreChecks([high(true), medium(true), low(false), low(false)])).toEqual({
      score: 79,
      result: 'decent',
    });
    // 10 of 21 points: 47.6 rounds to 48, bad
    expect(scoreChecks([high(true), medium(false), low(false), low(false), low(false)])).toEqual({
      score: 48,
      result: 'bad',
    });
  });

  it('scores nothing at all as 0', () => {
    expect(scoreChecks([])).toEqual({ score: 0, result: 'bad' });
  });
});
