import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/favorites (user layout, guards: auth, payment-required): placeholder until the user feature lands. */
export default function UserFavoritesRoute() {
  return <PagePlaceholder titleKey="page.user-favorites.title" descriptionKey="page.user-favorites.description" />;
}
