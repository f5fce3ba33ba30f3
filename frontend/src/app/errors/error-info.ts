import { isRouteErrorResponse } from 'react-router';
import { ApiError } from '@/lib/api-error';
import { NavigationError } from '@/lib/navigation-error';

/**
 * What the error page shows. `message` null means "use the status text"; `messageId` (with
 * `values`) names the catalogue text that replaces `message` in the visitor's language.
 */
export interface ErrorInfo {
  status: number;
  message: string | null;
  fatal: boolean;
  messageId?: string | null;
  values?: Readonly<Record<string, string>>;
}

/**
 * Reads status and visitor-facing message from anything thrown (spec §2 error page): default
 * status 500; the error's own message when it carries one meant for visitors (navigation errors,
 * API errors, thrown responses with a text body). Other errors (bugs) show the status text only.
 */
export function errorInfo(error: unknown): ErrorInfo {
  if (error instanceof NavigationError) {
    return error.ownMessage
      ? { status: error.status, message: error.message, fatal: error.fatal, messageId: error.messageId, values: error.values }
      : { status: error.status, message: null, fatal: error.fatal };
  }
  if (error instanceof ApiError) {
    return { status: error.status || 500, message: error.message || null, fatal: false };
  }
  if (isRouteErrorResponse(error)) {
    const data: unknown = error.data;
    const message = typeof data === 'string' && data.length > 0 ? data : null;
    return { status: error.status, message, fatal: false };
  }
  return { status: 500, message: null, fatal: false };
}
