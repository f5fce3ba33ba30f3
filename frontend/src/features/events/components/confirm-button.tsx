import { Button, type ButtonProps, Group, Modal, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';

/** A button that asks for confirmation in a dialog before a destructive action. */
export function ConfirmButton({ children, question, onConfirm, loading, ...rest }: ButtonProps & { children: ReactNode; question: ReactNode; onConfirm: () => void; loading?: boolean; 'data-testid'?: string }) {
  const intl = useIntl();
  const [opened, { open, close }] = useDisclosure(false);
  return (
    <>
      <Button {...rest} loading={loading} onClick={open}>
        {children}
      </Button>
      <Modal opened={opened} onClose={close} title={children} centered closeButtonProps={{ 'aria-label': intl.formatMessage({ id: 'common.close' }) }}>
        <Text>{question}</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close}>
            <FormattedMessage id="events.confirm.no" />
          </Button>
          <Button
            color="red"
            onClick={() => {
              close();
              onConfirm();
            }}
            data-testid="confirm-yes"
          >
            <FormattedMessage id="events.confirm.yes" />
          </Button>
        </Group>
      </Modal>
    </>
  );
}
