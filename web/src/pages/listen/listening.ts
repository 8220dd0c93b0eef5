/**
 * What the listen page measures (issue 16), apart from the player so it can be tested alone: the
 * seconds actually heard in a play session (a seek is no listening), and the percent they make of the
 * track. A milestone is reported when first crossed; the server counts each once per recipient anyway.
 */
import { listenMilestones } from '../../../../schema/api/listenValues';

/** Media time jumps bigger than this between two time updates are seeks, not listening. */
const MAX_TICK_SECONDS = 1.5;

export class ListeningMeter {
  heardSeconds = 0;
  private lastTime: number | null = null;
  private reported = 0;

  constructor(private readonly durationSeconds: number) {}

  /** A time update while playing: adds the time heard since the last one, unless it was a seek. */
  tick(currentTime: number): void {
    if (this.lastTime !== null) {
      const delta = currentTime - this.lastTime;
      if (delta > 0 && delta <= MAX_TICK_SECONDS) this.heardSeconds = Math.min(this.durationSeconds, this.heardSeconds + delta);
    }
    this.lastTime = currentTime;
  }

  /** Playback stopped or jumped: the next update starts a new stretch. */
  pause(): void {
    this.lastTime = null;
  }

  /** The track played to its end: everything heard counts as the whole of it when nearly all was. */
  finish(): void {
    if (this.heardSeconds >= this.durationSeconds * 0.97) this.heardSeconds = this.durationSeconds;
    this.lastTime = null;
  }

  get percent(): number {
    return this.durationSeconds > 0 ? Math.min(100, (this.heardSeconds / this.durationSeconds) * 100) : 0;
  }

  /** The milestone newly crossed since the last call, if any. */
  newMilestone(): number | undefined {
    const crossed = listenMilestones.filter((m) => this.percent >= m).at(-1) ?? 0;
    if (crossed <= this.reported) return undefined;
    this.reported = crossed;
    return crossed;
  }
}

/** 75 → '1:15'. */
export function clockTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}
