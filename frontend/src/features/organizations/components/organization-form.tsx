import { Button, Group, NativeSelect, SimpleGrid, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ORGANIZATION_SIZES, type OrganizationFormValues, slugFromName, validateOrganization } from '../api/organization';
import { SIZE_LABEL } from './labels';

/**
 * The fields of an organisation (issue 15): name, slug (only when creating; it is the address of
 * the public page), descriptions in English and German, website, industry, size and business
 * address (the public page shows the display address, spec §3). Errors are message ids from
 * validateOrganization; the database repeats every rule.
 * @param withSlug true on /org/new (slug editable, suggested from the name)
 */
export function OrganizationForm({
  initial,
  withSlug,
  submitLabel,
  pending,
  onSubmit,
  footer,
}: {
  initial: OrganizationFormValues;
  withSlug: boolean;
  submitLabel: ReactNode;
  pending: boolean;
  onSubmit: (values: OrganizationFormValues) => void;
  footer?: ReactNode;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const form = useForm<OrganizationFormValues>({
    initialValues: initial,
    validate: (values) => Object.fromEntries(Object.entries(validateOrganization(values, withSlug)).map(([k, id]) => [k, t(id)])),
  });
  const nameProps = form.getInputProps('name');
  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate data-testid="org-form">
      <Stack>
        <TextInput
          label={t('org.field.name')}
          required
          {...nameProps}
          onChange={(event) => {
            const name = event.currentTarget.value;
            if (withSlug && (form.values.slug === '' || form.values.slug === slugFromName(form.values.name))) form.setFieldValue('slug', slugFromName(name));
            form.setFieldValue('name', name);
          }}
        />
        {withSlug && (
          <TextInput
            label={t('org.field.slug')}
            description={t('org.field.slugHint')}
            required
            autoCapitalize="off"
            spellCheck={false}
            {...form.getInputProps('slug')}
          />
        )}
        <Textarea label={t('org.field.descriptionEn')} autosize minRows={3} {...form.getInputProps('descriptionEn')} />
        <Textarea label={t('org.field.descriptionDe')} autosize minRows={3} {...form.getInputProps('descriptionDe')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('org.field.website')} type="url" placeholder="https://" {...form.getInputProps('website')} />
          <TextInput label={t('org.field.industry')} {...form.getInputProps('industry')} />
          <NativeSelect
            label={t('org.field.size')}
            data={[{ value: '', label: t('org.field.choose') }, ...ORGANIZATION_SIZES.map((value) => ({ value, label: t(SIZE_LABEL[value]!) }))]}
            {...form.getInputProps('size')}
          />
        </SimpleGrid>
        <Title order={2} fz="h4">
          <FormattedMessage id="org.field.address" />
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t('org.field.street')} autoComplete="street-address" {...form.getInputProps('street')} />
          <TextInput label={t('org.field.postalCode')} autoComplete="postal-code" {...form.getInputProps('postalCode')} />
          <TextInput label={t('org.field.city')} autoComplete="address-level2" {...form.getInputProps('city')} />
          <TextInput label={t('org.field.country')} autoComplete="country" maxLength={2} {...form.getInputProps('country')} />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={pending} data-testid="org-submit">
            {submitLabel}
          </Button>
        </Group>
        {footer}
      </Stack>
    </form>
  );
}
