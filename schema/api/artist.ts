/**
 * The artist as their emails present them (spec §5 [ARTIST_NAME], {{SOCIAL_LINKS}}). Free of zod, so the
 * Lambdas that render or queue emails load no profile schema at start.
 */
import { isHttpLink } from './links';
import type { Profile } from './profile';

/** The name an artist signs with (spec §5 [ARTIST_NAME]): the artist name, else the full name. */
export const artistName = (profile: Pick<Profile, 'artist_name' | 'full_name'>) => profile.artist_name?.trim() || profile.full_name.trim();

/** What the artist's emails say about them (spec §5 [ARTIST_NAME], {{SOCIAL_LINKS}}): the name they sign with and their links. */
export function artistDetails(profile: Parameters<typeof artistName>[0] & Parameters<typeof artistLinks>[0]): {
  name: string;
  links: { label: string; url: string }[];
} {
  return { name: artistName(profile), links: artistLinks(profile) };
}

/** The profile's public links in the order emails list them ({{SOCIAL_LINKS}}), those that are set. */
export function artistLinks(profile: Pick<Profile, 'website_url' | 'soundcloud_url' | 'spotify_url' | 'instagram_url'>): { label: string; url: string }[] {
  const links: { label: string; url: string | null }[] = [
    { label: 'Website', url: profile.website_url },
    { label: 'SoundCloud', url: profile.soundcloud_url },
    { label: 'Spotify', url: profile.spotify_url },
    { label: 'Instagram', url: profile.instagram_url },
  ];
  return links.filter((link): link is { label: string; url: string } => !!link.url && isHttpLink(link.url));
}
