/**
 * storage-api's error model: every failure is answered as
 * `{ statusCode: "<semantic status>", code, error, message }`.
 *
 * Like storage-api (src/internal/errors/storage-error.ts, src/http/error-handler.ts) the HTTP
 * status of the response is 400 for every client error and 500 for server errors; the
 * semantic status (404, 409, 413, ...) is carried in the body's `statusCode`, which is what
 * storage-js exposes as `error.statusCode`. The few places where storage-api answers with the
 * semantic status itself (role enforcement: 403, unknown route: 404) pass `httpStatus`.
 */
import pg from 'pg';

export interface StorageErrorBody {
  statusCode: string;
  code: string;
  error: string;
  message: string;
}

export class StorageError extends Error {
  /** HTTP status of the response (400 for client errors, as storage-api). */
  readonly httpStatus: number;

  constructor(
    /** Semantic status, e.g. 404 for a missing object. */
    readonly statusCode: number,
    /** storage-api error code, e.g. `NoSuchKey`. */
    readonly code: string,
    message: string,
    /** Backwards-compatible `error` field (defaults to the code). */
    readonly errorName?: string,
    httpStatus?: number,
    /** The underlying failure (logged for 5xx answers). */
    cause?: unknown,
  ) {
    super(message, { cause });
    this.httpStatus = httpStatus ?? (statusCode >= 500 ? 500 : 400);
  }

  /** The JSON body storage-api sends for this error. */
  render(): StorageErrorBody {
    return { statusCode: String(this.statusCode), code: this.code, error: this.errorName ?? this.code, message: this.message };
  }
}

/** The errors this service raises, with storage-api's codes and messages. */
export const ERRORS = {
  noSuchBucket: () => new StorageError(404, 'NoSuchBucket', 'Bucket not found', 'Bucket not found'),
  noSuchKey: () => new StorageError(404, 'NoSuchKey', 'Object not found', 'not_found'),
  invalidKey: (key: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${key}`),
  invalidBucketName: () => new StorageError(400, 'InvalidBucketName', 'Bucket name invalid', 'Invalid Input'),
  keyAlreadyExists: () => new StorageError(409, 'KeyAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketAlreadyExists: () => new StorageError(409, 'BucketAlreadyExists', 'The resource already exists', 'Duplicate'),
  resourceAlreadyExists: () => new StorageError(409, 'ResourceAlreadyExists', 'The resource already exists', 'Duplicate'),
  bucketNotEmpty: () => new StorageError(409, 'ResourceNotEmpty', 'The bucket you tried to delete is not empty'),
  accessDenied: (message = 'Access denied', httpStatus?: number) =>
    new StorageError(403, 'AccessDenied', message, 'Unauthorized', httpStatus),
  invalidJwt: (message = 'Invalid JWT') => new StorageError(400, 'InvalidJWT', message),
  entityTooLarge: (entity = 'object', limit = 'the maximum allowed size') =>
    new StorageError(413, 'EntityTooLarge', `The ${entity} exceeded ${limit}`, 'Payload too large'),
  invalidMimeType: (mimeType: string) =>
    new StorageError(415, 'InvalidMimeType', `mime type ${mimeType} is not supported`, 'invalid_mime_type'),
  /** The bytes are not of the declared type (issue 12: content check, see content.ts). */
  contentMismatch: (mimeType: string) =>
    new StorageError(415, 'InvalidMimeType', `file content does not match mime type ${mimeType}`, 'invalid_mime_type'),
  invalidRequest: (message = 'Invalid Request') => new StorageError(400, 'InvalidRequest', message),
  /** Body validation / malformed JSON (storage-api answers these through fastify as 400). */
  badRequest: (message: string) => new StorageError(400, 'InvalidRequest', message, 'Bad Request'),
  noContentProvided: (message = 'No content provided') => new StorageError(400, 'InvalidRequest', message),
  invalidFileSizeLimit: () =>
    new StorageError(400, 'InvalidRequest', 'Invalid file size format, hint: use 20GB / 20MB / 30KB / 3B'),
  invalidParameter: (parameter: string) => new StorageError(400, 'InvalidParameter', `Invalid Parameter ${parameter}`),
  invalidSignature: (message = 'Invalid signature') => new StorageError(400, 'InvalidSignature', message),
  expiredSignature: () => new StorageError(400, 'ExpiredToken', 'The provided token has expired.'),
  relatedNotFound: () =>
    new StorageError(404, 'NoSuchBucket', 'The resource you are trying to reference does not exist', 'Bucket not found'),
  notFoundRoute: (method: string, url: string) =>
    new StorageError(404, 'InvalidRequest', `Route ${method}:${url} not found`, 'Not Found', 404),
  internal: () => new StorageError(500, 'InternalError', 'Internal server error', 'Internal'),
};

/**
 * Maps a Postgres error raised while acting as the caller to storage-api's error
 * (src/storage/database/errors.ts): 42501 (RLS / privilege) → 403 AccessDenied,
 * 23505 → 409 Duplicate, 23503 → 404, anything else → 500.
 */
export function fromPgError(err: unknown): StorageError {
  if (err instanceof StorageError) return err;
  if (err instanceof pg.DatabaseError) {
    switch (err.code) {
      case '42501':
        return ERRORS.accessDenied(
          err.message.includes('row-level security') ? 'new row violates row-level security policy' : err.message,
        );
      case '23505':
        return ERRORS.resourceAlreadyExists();
      case '23503':
        return ERRORS.relatedNotFound();
      case '22P02':
        return new StorageError(400, 'InvalidParameter', err.message || 'Invalid value format or type conversion failed');
      default:
        return new StorageError(500, 'DatabaseError', `database error, code: ${err.code ?? 'unknown'}`, 'DatabaseError', undefined, err);
    }
  }
  return new StorageError(500, 'InternalError', 'Internal server error', 'Internal', undefined, err);
}
