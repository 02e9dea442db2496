// A chart's time axis (History's score chart, a project's health over time): its labels.

/** A day ("3 Nov"), a time to the minute and to the second, as the charts write them. */
export const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
export const timeFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
export const secondsFormat = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The time axis' labels (epoch seconds), as the rest of the page writes dates: days, else times. */
export function timeLabels(splits: number[]): string[] {
  const span = splits.length > 1 ? splits[splits.length - 1]! - splits[0]! : 0;
  const format = span >= 2 * 86_400 ? dayFormat : span >= 120 ? timeFormat : secondsFormat;
  // Runs seconds apart would repeat one label along the axis: each is written once.
  return splits.map((at, index) => {
    const label = format.format(new Date(at * 1000));
    return index > 0 && label === format.format(new Date(splits[index - 1]! * 1000)) ? '' : label;
  });
}
