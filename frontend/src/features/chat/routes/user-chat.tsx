import { PagePlaceholder } from '@/components/page-placeholder';

/** /user/chat (user layout, guards: auth, payment-required): placeholder until the chat feature lands. */
export default function UserChatRoute() {
  return <PagePlaceholder titleKey="page.user-chat.title" descriptionKey="page.user-chat.description" />;
}
