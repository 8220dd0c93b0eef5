import { durationAtPace, durationWords } from '../../../schema/sendingLimits';

/**
 * Spec §9 queue ETA at the real pace (issue 23 §5): pending emails × the send interval (one a minute:
 * 60 an hour), in words. Compose and the campaign page both say it.
 */
export function queueEta(pending: number, intervalMs: number): string {
  if (pending <= 0) return 'Nothing left to send';
  return durationWords(durationAtPace(pending, intervalMs));
}
