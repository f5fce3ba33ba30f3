/**
 * Public entry of the chat feature: starting a conversation, and the chat query key and queries
 * the header, the dashboard and the contacts list show.
 */
export { CHAT_KEY, chatErrorMessageId, inboxQuery, startConversation, unreadTotalQuery } from './api/chat';
