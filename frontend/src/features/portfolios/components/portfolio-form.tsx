import { ActionIcon, Button, Group, NativeSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { TagsField } from '@/components/pill-inputs';
import { useForm } from '@mantine/form';
import { FormattedMessage, useIntl } from 'react-intl';
import { zodValidate } from '@/lib/zod-form';
import { EMPTY_PORTFOLIO, FILE_ACCESS_LABEL, type PortfolioFormValues, portfolioSchema } from '../api/portfolio-schema';

/**
 * Portfolio fields: title, description German + English, skills, links, image URLs and who may
 * download the supporting files. Calls onSubmit with validated values.
 */
export function PortfolioForm({ initial, busy, submitId, onSubmit }: { initial?: PortfolioFormValues; busy: boolean; submitId: string; onSubmit: (v: PortfolioFormValues) => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const form = useForm<PortfolioFormValues>({ initialValues: initial ?? EMPTY_PORTFOLIO, validate: zodValidate(portfolioSchema) });
  const err = (field: string) => {
    const id = form.errors[field];
    return typeof id === 'string' ? t(id) : undefined;
  };
  return (
    <form onSubmit={form.onSubmit((v) => onSubmit(portfolioSchema.parse(v)))} noValidate aria-label={t('portfolios.formLabel')}>
      <Stack>
        <TextInput label={<FormattedMessage id="portfolios.field.title" />} required {...form.getInputProps('title')} error={err('title')} />
        <Textarea label={<FormattedMessage id="portfolios.field.descriptionDe" />} autosize minRows={4} lang="de" {...form.getInputProps('descriptionDe')} error={err('descriptionDe')} />
        <Textarea label={<FormattedMessage id="portfolios.field.descriptionEn" />} autosize minRows={4} lang="en" {...form.getInputProps('descriptionEn')} error={err('descriptionEn')} />
        <TagsField label={<FormattedMessage id="portfolios.field.skills" />} description={<FormattedMessage id="portfolios.field.tagsHint" />} maxTags={50} {...form.getInputProps('skills')} error={err('skills')} />
        <Stack gap="xs">
          <FormattedMessage id="portfolios.field.links" />
          {form.values.links.map((_, i) => (
            <Group key={i} align="flex-end" wrap="nowrap">
              <TextInput label={<FormattedMessage id="portfolios.field.linkLabel" />} {...form.getInputProps(`links.${i}.label`)} error={err(`links.${i}.label`)} />
              <TextInput label={<FormattedMessage id="portfolios.field.linkUrl" />} style={{ flex: 1 }} {...form.getInputProps(`links.${i}.url`)} error={err(`links.${i}.url`)} />
              <ActionIcon variant="default" size="lg" aria-label={t('portfolios.removeLink')} onClick={() => form.removeListItem('links', i)}>
                ×
              </ActionIcon>
            </Group>
          ))}
          {form.values.links.length < 20 && (
            <Button variant="subtle" size="xs" style={{ alignSelf: 'flex-start' }} onClick={() => form.insertListItem('links', { label: '', url: '' })}>
              <FormattedMessage id="portfolios.addLink" />
            </Button>
          )}
        </Stack>
        <TagsField label={<FormattedMessage id="portfolios.field.images" />} description={<FormattedMessage id="portfolios.field.imagesHint" />} maxTags={20} {...form.getInputProps('images')} error={err('images')} />
        <NativeSelect
          label={<FormattedMessage id="portfolios.field.fileAccess" />}
          data={Object.entries(FILE_ACCESS_LABEL).map(([value, id]) => ({ value, label: t(id) }))}
          {...form.getInputProps('fileAccess')}
        />
        <Button type="submit" loading={busy} style={{ alignSelf: 'flex-start' }} data-testid="portfolio-save">
          <FormattedMessage id={submitId} />
        </Button>
      </Stack>
    </form>
  );
}
