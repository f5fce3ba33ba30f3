import { Alert, Button, Fieldset, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { useLocalizedPath } from '@/components/use-locale';
import { paths } from '@/config/paths';
import { signOut } from '@/lib/sign-out';
import { notify } from '@/lib/notify';
import { FunctionCallError } from '@/lib/function-call-error';
import { useCurrentSubscription } from '@/features/billing';
import { deleteMyAccount, exportMyData } from '../api/own-profile';

/**
 * Data export (DSGVO Art. 20, JSON download) and account deletion (Art. 17, confirmed by typing the
 * e-mail). With a live subscription the dialog says before confirming that deleting cancels it at
 * once, without refund (issue 32 §1).
 */
export function AccountData({ email }: { email: string }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const navigate = useNavigate();
  const localize = useLocalizedPath();
  const [opened, { open, close }] = useDisclosure(false);
  const [typed, setTyped] = useState('');
  const subscription = useCurrentSubscription();
  const paying = !!subscription.data && ['active', 'trialing', 'past_due'].includes(subscription.data.status);
  const download = useMutation({
    mutationFn: exportMyData,
    onSuccess: (data) => {
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `teamwerk-data-${new Date().toISOString().slice(0, 10)}.json`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    },
    onError: (err) => notify('error', err.message),
  });
  const remove = useMutation({
    mutationFn: () => deleteMyAccount(typed),
    onSuccess: async () => {
      // leave the user area first, so the session watcher does not send us to /login
      await navigate(localize(paths.home), { replace: true });
      await signOut();
      notify('success', t('account.delete.done'));
    },
    onError: (err) => notify('error', err instanceof FunctionCallError && err.code === 'email_mismatch' ? t('account.delete.mismatch') : err.message),
  });
  const matches = typed.trim().toLowerCase() === email.toLowerCase();
  return (
    <Fieldset legend={t('account.data.section')}>
      <Stack>
        <Text size="sm">
          <FormattedMessage id="account.data.exportHint" />
        </Text>
        <Group>
          <Button variant="outline" loading={download.isPending} onClick={() => download.mutate()}>
            <FormattedMessage id="account.data.export" />
          </Button>
          <Button color="red" variant="outline" onClick={open}>
            <FormattedMessage id="account.delete.open" />
          </Button>
        </Group>
      </Stack>
      <Modal opened={opened} onClose={close} title={t('account.delete.title')}>
        <Stack>
          <Text>
            <FormattedMessage id="account.delete.warning" values={{ email }} />
          </Text>
          {paying && (
            <Alert color="red" role="alert" data-testid="delete-subscription-warning">
              <FormattedMessage id="account.delete.subscription" />
            </Alert>
          )}
          <TextInput label={t('account.delete.typeEmail')} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              <FormattedMessage id="account.cancel" />
            </Button>
            <Button color="red" disabled={!matches} loading={remove.isPending} onClick={() => remove.mutate()}>
              <FormattedMessage id="account.delete.confirm" />
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Fieldset>
  );
}
