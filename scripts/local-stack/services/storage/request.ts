/**
 * Shared request plumbing for the storage handlers: the service context, JSON bodies with
 * fastify-like validation messages (storage-api validates bodies with JSON schema), and
 * path parameter decoding.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import type { StackConfig } from '../../config.ts';
import { HttpError, readJson } from '../../http.ts';
import type { DiskStore } from './disk.ts';
import { ERRORS, StorageError } from './errors.ts';

export interface StorageContext {
  config: StackConfig;
  pool: pg.Pool;
  disk: DiskStore;
  log: (scope: string, message: string, extra?: unknown) => void;
}

export interface RouteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
}

/**
 * Reads a JSON object body (max 1 MiB). An empty body gives `{}`.
 * Errors: 400 on malformed JSON or a non-object body, 413 past the limit.
 */
export async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await readJson(req, 1024 * 1024);
  } catch (err) {
    if (err instanceof HttpError && err.status === 413) throw ERRORS.entityTooLarge('request body');
    if (err instanceof HttpError) throw ERRORS.badRequest("Body is not valid JSON but content-type is set to 'application/json'");
    throw err;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw ERRORS.badRequest('body must be object');
  return body as Record<string, unknown>;
}

/** Asserts `body[key]` is a string (required unless `optional`). Errors: 400. */
export function str(body: Record<string, unknown>, key: string, optional: true): string | undefined;
export function str(body: Record<string, unknown>, key: string, optional?: false): string;
export function str(body: Record<string, unknown>, key: string, optional = false): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) {
    if (optional) return undefined;
    throw ERRORS.badRequest(`body must have required property '${key}'`);
  }
  if (typeof v !== 'string') throw ERRORS.badRequest(`body/${key} must be string`);
  return v;
}

/** Asserts `body[key]` is an integer ≥ `min` when present. Errors: 400. */
export function int(body: Record<string, unknown>, key: string, min: number): number | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw ERRORS.badRequest(`body/${key} must be integer`);
  if (v < min) throw ERRORS.badRequest(`body/${key} must be >= ${min}`);
  return v;
}

/** Asserts `body[key]` is a boolean when present. Errors: 400. */
export function bool(body: Record<string, unknown>, key: string): boolean | undefined {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw ERRORS.badRequest(`body/${key} must be boolean`);
  return v;
}

/** Asserts `body[key]` is a non-empty array of strings. Errors: 400. */
export function strArray(body: Record<string, unknown>, key: string): string[] {
  const v = body[key];
  if (v === undefined || v === null) throw ERRORS.badRequest(`body must have required property '${key}'`);
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw ERRORS.badRequest(`body/${key} must be array of strings`);
  if (v.length === 0) throw ERRORS.badRequest(`body/${key} must NOT have fewer than 1 items`);
  return v as string[];
}

/** Decodes one percent-encoded path segment. Errors: 400 InvalidKey on bad encoding. */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw ERRORS.invalidKey(segment);
  }
}

/** Splits `bucket/rest/of/key` (still encoded) into the decoded bucket and key. */
export function bucketAndKey(rest: string): { bucket: string; key: string } {
  const i = rest.indexOf('/');
  if (i < 0) return { bucket: decodeSegment(rest), key: '' };
  return { bucket: decodeSegment(rest.slice(0, i)), key: decodeSegment(rest.slice(i + 1)) };
}

export { StorageError };
