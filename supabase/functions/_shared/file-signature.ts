/**
 * The product's check of uploaded bytes (issue 29 §5; security issue 12 "avatars accept non-image
 * bytes"): hosted storage-api compares only the declared Content-Type with the bucket's allowed
 * MIME types (supabase/storage `src/storage/uploader.ts` validateMimeType) and stores whatever
 * bytes come with it, so the product reads them itself before an object is stored (the `upload`
 * function). A declared type with a known signature (images, PDF, Office documents: every type
 * `file-type` detects) must carry that signature; types without one (text/plain) are served as
 * declared.
 */
import { fileTypeFromBuffer, supportedMimeTypes } from 'file-type';

/**
 * What `file-type` reports for declared types it does not name itself: legacy Office files are OLE
 * compound files, OOXML and OpenDocument are zip archives (or their own type when recognised), and
 * the non-standard JPEG aliases.
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
export function essence(mimeType: string): string {
  return (mimeType.split(';')[0] ?? '').trim().toLowerCase();
}

/** True when bytes of `mimeType` have a signature this check can verify. */
export function hasSignature(mimeType: string): boolean {
  const type = essence(mimeType);
  return (supportedMimeTypes as ReadonlySet<string>).has(type) || type in EQUIVALENT;
}

/**
 * True when `bytes` may be stored as `mimeType`: the type has no signature, or the bytes carry it.
 * Input: the file's bytes and its declared Content-Type. Never throws.
 */
export async function bytesMatchType(bytes: Uint8Array, mimeType: string): Promise<boolean> {
  if (!hasSignature(mimeType)) return true;
  const declared = essence(mimeType);
  const detected = await fileTypeFromBuffer(bytes).catch(() => undefined);
  return Boolean(detected && (detected.mime === declared || EQUIVALENT[declared]?.includes(detected.mime)));
}
