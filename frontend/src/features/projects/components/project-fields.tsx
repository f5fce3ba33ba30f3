import { NativeSelect, SegmentedControl, Stack, Textarea, TextInput } from '@mantine/core';
import { CityField } from '@/components/city-field';
import { TagsField } from '@/components/pill-inputs';
import type { UseFormReturnType } from '@mantine/form';
import { FormattedMessage, useIntl } from 'react-intl';
import { PublishAsSelect } from '@/features/organizations';
import { type ProjectFormValues, STAGE_LABEL } from '../api/project-schema';
import { CATEGORY_LABEL, PRIVATE_CATEGORY_LABEL } from '@/lib/categories';

/** The groups of fields; the wizard shows one per step, the edit page all. */
export type FieldGroup = 'basics' | 'details' | 'location';

/** Fields of each group (used to validate one wizard step). */
export const GROUP_FIELDS: Readonly<Record<FieldGroup, readonly (keyof ProjectFormValues)[]>> = {
  basics: ['title', 'summary', 'isPrivate', 'category', 'privateCategory', 'organizationId'],
  details: ['description', 'stage', 'images'],
  location: ['city', 'rolesSought'],
};

type Form = UseFormReturnType<ProjectFormValues>;

/** Inputs of one group of project fields, labelled and with translated errors. */
export function ProjectFields({ form, group }: { form: Form; group: FieldGroup }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const err = (field: string) => {
    const id = form.errors[field];
    return typeof id === 'string' ? t(id) : undefined;
  };
  if (group === 'basics') {
    return (
      <Stack>
        <TextInput label={<FormattedMessage id="projects.field.title" />} required {...form.getInputProps('title')} error={err('title')} />
        <Textarea
          label={<FormattedMessage id="projects.field.summary" />}
          description={<FormattedMessage id="projects.field.summaryHint" />}
          autosize
          minRows={2}
          {...form.getInputProps('summary')}
          error={err('summary')}
        />
        <div>
          <div id="project-kind-label" style={{ fontSize: 'var(--mantine-font-size-sm)', fontWeight: 500, marginBottom: 4 }}>
            <FormattedMessage id="projects.field.kind" />
          </div>
          <SegmentedControl
            aria-labelledby="project-kind-label"
            value={form.values.isPrivate ? 'private' : 'public'}
            onChange={(v) => form.setFieldValue('isPrivate', v === 'private')}
            data={[
              { value: 'public', label: t('projects.kind.standard') },
              { value: 'private', label: t('projects.kind.private') },
            ]}
          />
        </div>
        {form.values.isPrivate ? (
          <NativeSelect
            label={<FormattedMessage id="projects.field.privateCategory" />}
            required
            data={[
              { value: '', label: t('projects.field.choose') },
              ...Object.entries(PRIVATE_CATEGORY_LABEL).map(([value, id]) => ({ value, label: t(id) })),
            ]}
            value={form.values.privateCategory ?? ''}
            onChange={(e) => form.setFieldValue('privateCategory', (e.currentTarget.value || null) as ProjectFormValues['privateCategory'])}
            error={err('privateCategory')}
          />
        ) : (
          <NativeSelect
            label={<FormattedMessage id="projects.field.category" />}
            required
            data={[{ value: '', label: t('projects.field.choose') }, ...Object.entries(CATEGORY_LABEL).map(([value, id]) => ({ value, label: t(id) }))]}
            value={form.values.category ?? ''}
            onChange={(e) => form.setFieldValue('category', (e.currentTarget.value || null) as ProjectFormValues['category'])}
            error={err('category')}
          />
        )}
        <PublishAsSelect value={form.values.organizationId} onChange={(id) => form.setFieldValue('organizationId', id)} />
      </Stack>
    );
  }
  if (group === 'details') {
    return (
      <Stack>
        <Textarea
          label={<FormattedMessage id="projects.field.description" />}
          description={<FormattedMessage id="projects.field.descriptionHint" />}
          autosize
          minRows={6}
          {...form.getInputProps('description')}
          error={err('description')}
        />
        <NativeSelect
          label={<FormattedMessage id="projects.field.stage" />}
          data={Object.entries(STAGE_LABEL).map(([value, id]) => ({ value, label: t(id) }))}
          {...form.getInputProps('stage')}
        />
        <TagsField
          label={<FormattedMessage id="projects.field.images" />}
          description={<FormattedMessage id="projects.field.imagesHint" />}
          maxTags={12}
          {...form.getInputProps('images')}
          error={err('images') ?? Object.keys(form.errors).filter((k) => k.startsWith('images.')).map((k) => t(String(form.errors[k])))[0]}
        />
      </Stack>
    );
  }
  return (
    <Stack>
      <CityField
        label={<FormattedMessage id="projects.field.city" />}
        description={<FormattedMessage id="projects.field.cityHint" />}
        value={form.values.city}
        onChange={(v) => form.setFieldValue('city', v)}
        error={err('city')}
      />
      <TagsField
        label={<FormattedMessage id="projects.field.roles" />}
        description={<FormattedMessage id="projects.field.rolesHint" />}
        maxTags={20}
        {...form.getInputProps('rolesSought')}
        error={err('rolesSought')}
      />
    </Stack>
  );
}
