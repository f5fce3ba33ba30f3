import { z } from 'zod';

/** Berlin calendar day today, YYYY-MM-DD (the form's dates are German calendar days). */
export function berlinToday(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * The §312k BGB cancellation form (mirrors cancel-contract's body and cancellation_requests'
 * checks: name 1–200, e-mail ≤ 320, contract ≤ 200, reason ≤ 2000, date not in the past).
 * Error messages are message ids.
 */
export const cancellationSchema = z
  .object({
    name: z.string().trim().min(1, 'billing.cancel.error.name').max(200, 'billing.cancel.error.name'),
    email: z.email('billing.cancel.error.email').max(320, 'billing.cancel.error.email'),
    plan: z.enum(['', 'basic', 'premium', 'enterprise']),
    contract: z.string().trim().max(200, 'billing.cancel.error.contract'),
    reason: z.string().trim().max(2000, 'billing.cancel.error.reason'),
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
