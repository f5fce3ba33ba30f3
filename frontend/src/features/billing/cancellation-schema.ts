import { berlinToday, CANCELLATION_LIMITS as MAX } from '@site/cancellation';
import { z } from 'zod';

/**
 * The §312k BGB cancellation form with the limits cancel-contract checks (`@site`: name 1–200,
 * e-mail ≤ 320, contract ≤ 200, reason ≤ 2000) and a date not in the past. Error messages are
 * message ids.
 */
export const cancellationSchema = z
  .object({
    name: z.string().trim().min(1, 'billing.cancel.error.name').max(MAX.name, 'billing.cancel.error.name'),
    email: z.email('billing.cancel.error.email').max(MAX.email, 'billing.cancel.error.email'),
    plan: z.enum(['', 'basic', 'premium', 'enterprise']),
    contract: z.string().trim().max(MAX.contract, 'billing.cancel.error.contract'),
    reason: z.string().trim().max(MAX.reason, 'billing.cancel.error.reason'),
    when: z.enum(['asap', 'date']),
    date: z.string(),
  })
  .superRefine((values, ctx) => {
    if (values.when !== 'date') return;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(values.date) || Number.isNaN(Date.parse(values.date))) {
      ctx.addIssue({ code: 'custom', path: ['date'], message: 'billing.cancel.error.date' });
    } else if (values.date < berlinToday()) {
      ctx.addIssue({ code: 'custom', path: ['date'], message: 'billing.cancel.error.datePast' });
    }
  });

/** Values of the cancellation form. */
export type CancellationForm = z.infer<typeof cancellationSchema>;
