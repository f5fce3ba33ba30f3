import { Alert, Badge, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { useLocalizedPath } from '@/components/use-locale';
import { useSession } from '@/lib/session';
import { paths } from '@/config/paths';
import { chatErrorMessageId, startConversation } from '@/features/chat';
import { notify } from '@/lib/notify';
import { type AnalyticsItemType, trackItem } from '@/lib/track';
import {
  answerContactRequest,
  CONTACT_NOTE_MAX,
  contactErrorMessageId,
  contactAllowanceQuery,
  CONTACTS_KEY,
  deleteContact,
  relationQuery,
  sendContactRequest,
} from '../api/contacts';
import { formatRenewal, weeklyLimitOf } from '../api/weekly-limit';

/**
 * "Connect" wherever a person is shown (issue 13): sends a contact request with an optional note
 * (≤ 500 characters); when a request is open it offers withdraw (sent) or accept/decline
 * (received); for a contact it offers "Message". Renders nothing for visitors and on one's own
 * profile. The database decides (30-day rule, limits, blocks, payment); its answer is shown. The
 * dialog shows the requests left this week; the weekly limit's refusal names the renewal day
 * (issue 19).
 * Default export: loaded lazily by public pages, only for signed-in viewers.
 */
export default function ConnectButton({
  userId,
  name,
  size = 'sm',
  analyticsItem,
}: {
  userId: string;
  name: string;
  size?: 'xs' | 'sm';
  /** The item whose "Connect" clicks analytics counts (issue 15); default the person's profile. */
  analyticsItem?: { type: AnalyticsItemType; id: string | number };
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const me = useSession().user?.id;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const relation = useQuery({ ...relationQuery(me ?? '', userId), enabled: !!me && me !== userId });
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const allowance = useQuery({ ...contactAllowanceQuery(), enabled: open });
  const [confirm, setConfirm] = useState<'withdraw' | 'decline' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: CONTACTS_KEY });

  const send = useMutation({
    mutationFn: () => sendContactRequest(userId, note),
    onSuccess: (status) => {
      notify('success', t(status === 'accepted' ? 'contacts.accept.done' : 'contacts.request.sent', { name }));
      setOpen(false);
      setNote('');
      void refresh();
    },
    onError: (err) => {
      // the weekly allowance (issue 19) comes with its size and renewal day
      const limit = weeklyLimitOf(err);
      const text = limit
        ? t('contacts.error.weeklyLimit', { limit: String(limit.limit), date: formatRenewal(intl, limit.renewsAt) })
        : t(contactErrorMessageId(err));
      // shown once, in the request form (issue 33 §8)
      setError(text);
    },
  });
  const answer = useMutation({
    mutationFn: ({ contactId, accept }: { contactId: number; accept: boolean }) => answerContactRequest(contactId, accept),
    onSuccess: (_v, { accept }) => {
      notify('success', t(accept ? 'contacts.accept.done' : 'contacts.decline.done', { name }));
      setConfirm(null);
      void refresh();
    },
    onError: (err) => notify('error', t(contactErrorMessageId(err))),
  });
  const withdraw = useMutation({
    mutationFn: (contactId: number) => deleteContact(contactId),
    onSuccess: () => {
      notify('success', t('contacts.withdraw.done', { name }));
      setConfirm(null);
      void refresh();
    },
    onError: (err) => notify('error', t(contactErrorMessageId(err))),
  });
  const message = useMutation({
    mutationFn: () => startConversation(userId),
    onSuccess: (id) => void navigate(localize(paths.user.conversation(id))),
    onError: (err) => notify('error', t(chatErrorMessageId(err))),
  });

  if (!me || me === userId || !relation.data) return null;
  const r = relation.data;
  return (
    <>
      <Group gap="xs" data-testid="connect-actions" data-relation={r.kind}>
        {(r.kind === 'none' || r.kind === 'declined') && (
          <Button
            size={size}
            onClick={() => {
              trackItem(analyticsItem?.type ?? 'profile', analyticsItem?.id ?? userId, 'connect_click');
              setOpen(true);
            }}
            data-testid="connect-button"
          >
            <FormattedMessage id="contacts.connect" />
          </Button>
        )}
        {r.kind === 'sent' && (
          <>
            <Badge variant="outline" color="var(--tw-gray)" size="lg">
              <FormattedMessage id="contacts.request.pending" />
            </Badge>
            <Button size={size} variant="default" onClick={() => setConfirm('withdraw')}>
              <FormattedMessage id="contacts.withdraw" />
            </Button>
          </>
        )}
        {r.kind === 'received' && (
          <>
            <Button size={size} loading={answer.isPending && answer.variables?.accept} onClick={() => answer.mutate({ contactId: r.contactId, accept: true })}>
              <FormattedMessage id="contacts.accept" />
            </Button>
            <Button size={size} variant="default" onClick={() => setConfirm('decline')}>
              <FormattedMessage id="contacts.decline" />
            </Button>
          </>
        )}
        {r.kind === 'contact' && (
          <>
            <Badge variant="outline" color="var(--tw-teal)" size="lg">
              <FormattedMessage id="contacts.isContact" />
            </Badge>
            <Button size={size} loading={message.isPending} onClick={() => message.mutate()} data-testid="message-button">
              <FormattedMessage id="contacts.message" />
            </Button>
          </>
        )}
      </Group>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={t('contacts.request.title', { name })}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setError(null);
            send.mutate();
          }}
        >
          <Stack>
            <Textarea
              label={<FormattedMessage id="contacts.request.note" />}
              description={t('contacts.request.noteHint', { count: String(CONTACT_NOTE_MAX - note.length) })}
              value={note}
              maxLength={CONTACT_NOTE_MAX}
              autosize
              minRows={3}
              onChange={(e) => setNote(e.currentTarget.value)}
              data-autofocus
              data-testid="contact-note-input"
            />
            {allowance.data && allowance.data.weeklyLimit !== null && allowance.data.weeklyLimit > 0 && (
              <Text size="sm" c="var(--tw-muted)" data-testid="contact-allowance">
                {t('contacts.allowance', {
                  n: String(allowance.data.remaining ?? 0),
                  limit: String(allowance.data.weeklyLimit),
                  date: formatRenewal(intl, allowance.data.renewsAt),
                })}
              </Text>
            )}
            {error && (
              <Alert color="red" role="alert" data-testid="contact-send-error">
                <Text size="sm">{error}</Text>
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                <FormattedMessage id="common.cancel" />
              </Button>
              <Button type="submit" loading={send.isPending} data-testid="contact-send">
                <FormattedMessage id="contacts.request.send" />
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <ConfirmDialog
        opened={confirm !== null}
        title={t(confirm === 'decline' ? 'contacts.decline.title' : 'contacts.withdraw.title')}
        message={t(confirm === 'decline' ? 'contacts.decline.text' : 'contacts.withdraw.text', { name })}
        confirmLabel={t(confirm === 'decline' ? 'contacts.decline' : 'contacts.withdraw')}
        loading={answer.isPending || withdraw.isPending}
        onConfirm={() => {
          if (r.kind === 'received' && confirm === 'decline') answer.mutate({ contactId: r.contactId, accept: false });
          if (r.kind === 'sent' && confirm === 'withdraw') withdraw.mutate(r.contactId);
        }}
        onClose={() => setConfirm(null)}
      />
    </>
  );
}
