import type { z } from 'zod';

/**
 * Adapts a zod schema to Mantine's `validate` function: returns `{ field: messageId }` for each
 * invalid field (the schema's messages are message ids), `{}` when valid.
 */
export function zodValidate<T extends z.ZodType>(schema: T) {
  return (values: unknown): Record<string, string> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const key = issue.path.join('.');
      if (key && !errors[key]) errors[key] = issue.message;
    }
    return errors;
  };
}
