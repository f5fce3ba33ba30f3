import { ActionIcon, NumberInput, type NumberInputHandlers, type NumberInputProps, Stack } from '@mantine/core';
import { useRef } from 'react';
import { useIntl } from 'react-intl';

/** A small chevron pointing up or down (the look of Mantine's own stepper). */
function Chevron({ up }: { up: boolean }) {
  return (
    <svg width="10" height="10" viewBox="0 0 15 15" aria-hidden="true" style={{ transform: up ? 'rotate(180deg)' : undefined }}>
      <path d="M3.1 5.8 7.5 10.2l4.4-4.4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * Mantine's NumberInput with stepper buttons that have accessible names ("Increase {label}" /
 * "{label} erhöhen"); Mantine's own steppers are hidden from assistive technology (issue 33 §13).
 * Like Mantine's, the buttons are not tab stops (the arrow keys step the focused input).
 * @param label the field's visible label as text; it names the field and its steppers
 */
export function NumberField({ label, ...props }: Omit<NumberInputProps, 'label'> & { label: string }) {
  const intl = useIntl();
  const handlers = useRef<NumberInputHandlers>(null);
  const step = (up: boolean) => {
    if (up) handlers.current?.increment();
    else handlers.current?.decrement();
  };
  const stepper = (up: boolean) => (
    <ActionIcon
      variant="subtle"
      color="gray"
      size={14}
      tabIndex={-1}
      disabled={props.disabled || props.readOnly}
      aria-label={intl.formatMessage({ id: up ? 'common.number.increase' : 'common.number.decrease' }, { label })}
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => step(up)}
    >
      <Chevron up={up} />
    </ActionIcon>
  );
  return (
    <NumberInput
      label={label}
      handlersRef={handlers}
      rightSection={props.hideControls ? props.rightSection : (
        <Stack gap={0}>
          {stepper(true)}
          {stepper(false)}
        </Stack>
      )}
      {...props}
    />
  );
}
