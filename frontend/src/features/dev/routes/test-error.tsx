import { useSearchParams } from 'react-router';
import { NavigationError } from '@/lib/navigation-error';

/**
 * `/test/error?status=500[&message=…]`: raises an error with that status (and own message, if
 * given) so the error page can be exercised (spec §2 lists test pages).
 */
export default function TestErrorRoute(): never {
  const [search] = useSearchParams();
  const status = Number.parseInt(search.get('status') ?? '500', 10) || 500;
  const message = search.get('message');
  throw new NavigationError(status, message ?? `Test error ${status}`, { fatal: false, ownMessage: !!message });
}
