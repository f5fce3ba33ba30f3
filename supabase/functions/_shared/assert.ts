/**
 * Assertions for the Deno tests (node:assert, since only npm:/node: imports are available).
 */
import nodeAssert from 'node:assert/strict';

/** Fails unless `value` is truthy. */
export function assert(value: unknown, message?: string): asserts value {
  nodeAssert.ok(value, message ?? "assertion failed");
}

/** Fails unless `actual` deep-equals `expected`. */
export function assertEquals(actual: unknown, expected: unknown, message?: string): void {
  nodeAssert.deepStrictEqual(actual, expected, message ?? "values differ");
}
