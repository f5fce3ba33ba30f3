/**
 * Error raised by the navigation check or a page: carries an HTTP-like status and whether it is
 * fatal (the error page replaces the route's layout) or not (error inside the layout). Spec §2, §8.
 * `message` stays English (logs, spec §8 texts); `messageId` with `values` is what the visitor
 * reads, in the page's language (issue 33 §7: the German 404 heading was English).
 */
export class NavigationError extends Error {
  readonly status: number;
  readonly fatal: boolean;
  /** True when the message is meant for the visitor (otherwise the status text is shown). */
  readonly ownMessage: boolean;
  /** Catalogue id of the visitor's message, when it has one. */
  readonly messageId: string | null;
  readonly values: Readonly<Record<string, string>>;

  constructor(
    status: number,
    message: string,
    options: { fatal: boolean; ownMessage?: boolean; messageId?: string; values?: Record<string, string> },
  ) {
    super(message);
    this.name = 'NavigationError';
    this.status = status;
    this.fatal = options.fatal;
    this.ownMessage = options.ownMessage ?? true;
    this.messageId = options.messageId ?? null;
    this.values = options.values ?? {};
  }
}

/** Fatal not-found of a route whose validation failed: 'Page Not Found: {path}' (spec §8). */
export const routeValidationError = (path: string): NavigationError =>
  new NavigationError(404, `Page Not Found: ${path}`, { fatal: true, messageId: 'error.notFoundAt', values: { path } });

/** Non-fatal not-found of an unmatched path: 'Page not found: {path}' (spec §8). */
export const unmatchedRouteError = (path: string): NavigationError =>
  new NavigationError(404, `Page not found: ${path}`, { fatal: false, messageId: 'error.unmatchedAt', values: { path } });

/** A route names a guard that is not registered (spec §8). */
export const unknownMiddlewareError = (): NavigationError =>
  new NavigationError(500, 'Unknown route middleware', { fatal: true });
