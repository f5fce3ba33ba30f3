import { type ComboboxRenderPillInput, MultiSelect, type MultiSelectProps, Pill, TagsInput, type TagsInputProps } from '@mantine/core';
import { useIntl } from 'react-intl';

/**
 * One chosen value with a remove button that has an accessible name ("Remove {tag}" /
 * "{tag} entfernen"); Mantine's own pill hides its "×" from assistive technology (issue 33 §13).
 */
function LabelledPill({ option, onRemove, disabled, reorderProps }: ComboboxRenderPillInput) {
  const intl = useIntl();
  return (
    <Pill
      {...reorderProps}
      withRemoveButton={!disabled && !option.disabled}
      onRemove={onRemove}
      disabled={disabled}
      removeButtonProps={{ 'aria-hidden': false, 'aria-label': intl.formatMessage({ id: 'common.tag.remove' }, { tag: option.label }) }}
    >
      {option.label}
    </Pill>
  );
}

const renderPill = (props: ComboboxRenderPillInput) => <LabelledPill {...props} />;

/** Mantine's TagsInput whose tags' remove buttons are named for screen readers (issue 33 §13). */
export function TagsField(props: TagsInputProps) {
  return <TagsInput renderPill={props.readOnly ? undefined : renderPill} {...props} />;
}

/** Mantine's MultiSelect whose chosen values' remove buttons are named for screen readers (issue 33 §13). */
export function MultiSelectField(props: MultiSelectProps) {
  return <MultiSelect renderPill={props.readOnly ? undefined : renderPill} {...props} />;
}
