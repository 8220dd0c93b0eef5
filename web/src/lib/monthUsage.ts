export type UsageLevel = 'normal' | 'warning' | 'limit';

/**
 * Spec §9 usage: this month's emails as a whole percentage of the plan's limit, with the level it has
 * reached (warning from 80 %, limit at 100 %). The sidebar and the campaign pages show it, so one figure
 * reads the same everywhere (9 of 500 is 1 % in both). Rounded down, so a bar never reads 80 % or 100 %
 * before the level it names is reached. No monthly limit: 0 %.
 */
export function monthUsage(month: { used: number; limit: number | null }): { percent: number; level: UsageLevel } {
  if (month.limit === null) return { percent: 0, level: 'normal' };
  const exact = month.limit <= 0 ? (month.used > 0 ? 100 : 0) : (month.used / month.limit) * 100;
  const percent = Math.max(0, Math.min(100, Math.floor(exact)));
  return { percent, level: exact >= 100 ? 'limit' : exact >= 80 ? 'warning' : 'normal' };
}
