/** Option lists of spec §3, shared by the web forms, the seed data and the server checks. */
export const genres = [
  'house', 'techno', 'progressive', 'trance', 'dubstep', 'drum-bass', 'deep-house',
  'tech-house', 'minimal', 'ambient', 'breaks', 'bass', 'other',
] as const;
export type Genre = (typeof genres)[number];

export const contactTypes = ['Label', 'DJ', 'Fan'] as const;
export type ContactType = (typeof contactTypes)[number];

export const tones = ['professional', 'friendly', 'casual'] as const;
export type Tone = (typeof tones)[number];
