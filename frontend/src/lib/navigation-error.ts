/**
 * Error raised by the navigation check or a page: carries an HTTP-like status and whether it is
 * fatal (full-page error without layout) or not (error inside the layout). Spec §2, §8.
 */
export class NavigationError extends Error {
  readonly status: number;
  readonly fatal: boolean;
  /** True when the message is meant for the visitor (otherwise the status text is shown). */
  readonly ownMessage: boolean;

  constructor(status: number, message: string, options: { fatal: boolean; ownMessage?: boolean }) {
    super(message);
    this.name = 'NavigationError';
    this.status = status;
    this.fatal = options.fatal;
    this.ownMessage = options.ownMessage ?? true;
  }
}

/** Fatal not-found of a route whose validation failed: 'Page Not Found: {path}' (spec §8). */
export const routeValidationError = (path: string): NavigationError =>
  new NavigationError(404, `Page Not Found: ${path}`, { fatal: true });

/** Non-fatal not-found of an unmatched path: 'Page not found: {path}' (spec §8). */
export const unmatchedRouteError = (path: string): NavigationError =>
  new NavigationError(404, `Page not found: ${path}`, { fatal: false });

/** A route names a guard that is not registered (spec §8). */
export const unknownMiddlewareError = (): NavigationError =>
  new NavigationError(500, 'Unknown route middleware', { fatal: true });
