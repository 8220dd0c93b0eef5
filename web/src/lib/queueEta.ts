/** Spec §9 queue ETA: pending emails ÷ 60 an hour (one a minute), in words. Compose and the campaign page both say it. */
export function queueEta(pending: number): string {
  if (pending <= 0) return 'Nothing left to send';
  if (pending < 60) return `about ${pending} minute${pending === 1 ? '' : 's'}`;
  const hours = Math.round((pending / 60) * 10) / 10;
  return `about ${hours} hour${hours === 1 ? '' : 's'}`;
}
