/** Cloudscape's small-screen breakpoint: below it the dashboard becomes the phone layout. */
export const PHONE_MEDIA_QUERY = '(max-width: 688px)';

/** Whether the window is phone-sized now (false where matchMedia does not exist). */
export function isPhoneViewport(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(PHONE_MEDIA_QUERY).matches;
}
