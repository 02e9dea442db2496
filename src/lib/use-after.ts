import { useEffect, useState } from 'react';

/**
 * True once `flag` has been true for `ms` without a break; false as soon as it is false. For signs
 * of waiting (a spinner, dimming) that a quick answer should never show: the screen then changes
 * once, not twice.
 */
export function useAfter(flag: boolean, ms: number): boolean {
  const [late, setLate] = useState(false);
  useEffect(() => {
    if (!flag) return;
    const timer = setTimeout(() => setLate(true), ms);
    return () => {
      clearTimeout(timer);
      setLate(false);
    };
  }, [flag, ms]);
  return flag && late;
}
