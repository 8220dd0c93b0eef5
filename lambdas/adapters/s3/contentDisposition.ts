/**
 * The Content-Disposition a download's signed GET asks S3 to answer with (response-content-disposition):
 * shared by the full S3 adapter and the listen group's small signer so both name a file alike.
 */

/** `attachment; filename=…` for a download, ASCII-safe with the RFC 5987 form beside it. */
export const attachment = (name: string) => `attachment; filename="${name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`;
