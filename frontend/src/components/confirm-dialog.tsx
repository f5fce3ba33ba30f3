import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

/** Props of ConfirmDialog. */
export interface ConfirmDialogProps {
  opened: boolean;
  title: ReactNode;
  message: ReactNode;
  confirmLabel: ReactNode;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * Modal asking to confirm a destructive action (delete, unpublish); the confirm button is red and
 * the cancel button has the focus first, so Enter never destroys by accident.
 */
export function ConfirmDialog({ opened, title, message, confirmLabel, loading, onConfirm, onClose }: ConfirmDialogProps) {
  const intl = useIntl();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}>
      <Text mb="md">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} data-autofocus>
          <FormattedMessage id="common.cancel" />
        </Button>
        <Button color="red" onClick={onConfirm} loading={loading} data-testid="confirm-action">
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
