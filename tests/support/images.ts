/**
 * Images made in code for the cover art tests (issue 25 §5; no fixtures, no network): 1×1 pictures of
 * each type, as an image editor saves them, and what is not one of ours.
 */
const fromBase64 = (base64: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(base64, 'base64'));

/** A 1×1 baseline JPEG (FF D8 FF, a JFIF segment). */
export const jpegBytes = () =>
  fromBase64(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  );
/** A 1×1 PNG. */
export const pngBytes = () => fromBase64('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==');
/** A 1×1 lossless WebP (a RIFF container of form WEBP). */
export const webpBytes = () => fromBase64('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==');
/** A 1×1 GIF: an image, but not a type a cover may be. */
export const gifBytes = () => fromBase64('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7');
/** Text, as a user might save under `cover.jpg` or `cover.png`. */
export const notAnImageBytes = (): Uint8Array<ArrayBuffer> => new TextEncoder().encode('This is the artwork brief, not the artwork.\n'.repeat(10));
