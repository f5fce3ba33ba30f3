/**
 * Content check of stored objects (issue 12: "avatars accept non-image bytes").
 *
 * storage-api compares only the declared Content-Type with the bucket's allowed MIME types, so
 * HTML declared as image/png lands in the avatars bucket. This service also reads the bytes: in
 * a bucket with allowed MIME types, an object whose declared type has a known signature (images,
 * PDF, office documents: every type `file-type` detects) must carry that signature (magic
 * number). Types without a signature (text/plain) are not read; they are served as declared,
 * with `X-Content-Type-Options: nosniff` (respond.ts), so a browser never renders them as HTML.
 */
import { fileTypeFromFile, supportedMimeTypes } from 'file-type';
import { ERRORS } from './errors.ts';
import { assertMimeTypeAllowed } from './validation.ts';

/**
 * What `file-type` reports for declared types it does not name itself: legacy Office files are
 * OLE compound files, OOXML and OpenDocument are zip archives (reported by their own type when
 * `file-type` recognises the content, else as zip), and the non-standard JPEG aliases.
 */
const EQUIVALENT: Readonly<Record<string, readonly string[]>> = {
  'image/jpg': ['image/jpeg'],
  'image/pjpeg': ['image/jpeg'],
  'application/msword': ['application/x-cfb'],
  'application/vnd.ms-excel': ['application/x-cfb'],
  'application/vnd.ms-powerpoint': ['application/x-cfb'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['application/zip'],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['application/zip'],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': ['application/zip'],
  'application/vnd.oasis.opendocument.text': ['application/zip'],
};

/** `type/subtype` of a Content-Type, lower case, without parameters. */
function essence(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

/** True when bytes of `mimeType` have a signature this check can verify. */
export function hasSignature(mimeType: string): boolean {
  const type = essence(mimeType);
  return (supportedMimeTypes as ReadonlySet<string>).has(type) || type in EQUIVALENT;
}

/**
 * Asserts that the file at `filePath` may be stored as `mimeType` in a bucket with the allowed
 * types `allowed` (empty or null: any type, nothing is read). The declared type must be allowed
 * (storage-api's rule) and, when it has a signature, the bytes must carry it.
 * Errors: 415 InvalidMimeType (HTTP 400, storage-api's shape) — "mime type X is not supported"
 * for a type the bucket does not allow, "file content does not match mime type X" for bytes of
 * another (or no recognisable) type.
 */
export async function assertContentAllowed(filePath: string, mimeType: string, allowed: string[] | null | undefined): Promise<void> {
  if (!allowed || allowed.length === 0) return;
  assertMimeTypeAllowed(mimeType, allowed);
  if (!hasSignature(mimeType)) return;
  const declared = essence(mimeType);
  const detected = await fileTypeFromFile(filePath).catch(() => undefined);
  if (detected && (detected.mime === declared || EQUIVALENT[declared]?.includes(detected.mime))) return;
  throw ERRORS.contentMismatch(mimeType);
}
