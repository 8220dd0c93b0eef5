import { z } from 'zod';

export const musicStyles = [
  'House', 'Techno', 'Hip-Hop', 'Drum & Bass', 'Dubstep', 'Trap', 'Future Bass',
  'Progressive House', 'Deep House', 'Trance', 'Hardstyle', 'Ambient', 'Other',
] as const;

export const waitlistStatuses = ['pending', 'approved', 'rejected'] as const;

export const waitlistEntrySchema = z.object({
  id: z.string(),
  email: z.string(),
  artist_name: z.string(),
  music_style: z.string(),
  soundcloud_spotify_url: z.string().nullable(),
  why_interested: z.string().nullable(),
  status: z.enum(waitlistStatuses),
  submitted_at: z.string(),
  approved_at: z.string().nullable(),
  notes: z.string().nullable(),
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;
