import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/feedback (user layout, guards: auth): placeholder until the user feature lands. */
export default function UserFeedbackRoute() {
  return <PagePlaceholder titleKey="page.user-feedback.title" descriptionKey="page.user-feedback.description" />;
}
