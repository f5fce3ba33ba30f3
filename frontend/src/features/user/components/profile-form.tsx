import { Button, Fieldset, Group, Radio, Select, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { MultiSelectField, TagsField } from '@/components/pill-inputs';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { z } from 'zod';
import { notify } from '@/lib/notify';
import { Checks } from '@/lib/database.checks';
import { Constants } from '@/lib/database.types';
import { httpUrlSchema } from '@/lib/safe-url';
import { zodValidate } from '@/lib/zod-form';
import { type ProfileUpdates, updateOwnProfile } from '../api/own-profile';
import { type OwnProfile } from '@/lib/own-profile';

/** The ten project categories of spec §1 (profiles.categories). */
export const CATEGORY_IDS = {
  education: 'account.category.education',
  technology: 'account.category.technology',
  business: 'account.category.business',
  art: 'account.category.art',
  community: 'account.category.community',
  environment: 'account.category.environment',
  health: 'account.category.health',
  science: 'account.category.science',
  social: 'account.category.social',
  other: 'account.category.other',
} as const;
type Category = keyof typeof CATEGORY_IDS;

/** The social networks of profiles.social_links (spec §3) and their labels. */
export const SOCIAL_NETWORKS = [
  ['instagram', 'Instagram'],
  ['facebook', 'Facebook'],
  ['tiktok', 'TikTok'],
  ['youtube', 'YouTube'],
  ['linkedin', 'LinkedIn'],
  ['xing', 'XING'],
  ['whatsapp', 'WhatsApp'],
  ['telegram', 'Telegram'],
] as const;

const optionalText = (max: number) => z.string().max(max, 'account.validation.tooLong');
const link = z.union([z.literal(''), httpUrlSchema('account.validation.url')]);

const C = Checks.profiles;

/** The fields update-user's SELF_FIELDS take, with the limits of the profiles CHECK constraints (database.checks.ts). */
const schema = z.object({
  firstname: z.string().trim().min(1, 'account.validation.required').max(C.firstname.maxLength, 'account.validation.tooLong'),
  lastname: z.string().trim().min(1, 'account.validation.required').max(C.lastname.maxLength, 'account.validation.tooLong'),
  headline: optionalText(C.headline.maxLength),
  bio: optionalText(C.bio.maxLength),
  skills: z.array(z.string().max(100, 'account.validation.tooLong')).max(C.skills.maxItems, 'account.validation.tooMany'),
  looking_for: optionalText(C.looking_for.maxLength),
  offering: optionalText(C.offering.maxLength),
  categories: z.array(z.string()).max(10, 'account.validation.tooMany'),
  type: z.enum(Constants.public.Enums.profile_type),
  street: optionalText(C.street.maxLength),
  house_number: optionalText(C.house_number.maxLength),
  city: optionalText(C.city.maxLength),
  state: optionalText(C.state.maxLength),
  zipcode: optionalText(C.zipcode.maxLength),
  visible: z.boolean(),
  preferred_language: z.enum(C.preferred_language.oneOf),
  social: z.record(z.string(), link),
});
type Values = z.input<typeof schema>;

const toValues = (p: OwnProfile): Values => {
  const links = (p.social_links ?? {}) as Record<string, string>;
  return {
    firstname: p.firstname,
    lastname: p.lastname,
    headline: p.headline ?? '',
    bio: p.bio ?? '',
    skills: p.skills,
    looking_for: p.looking_for ?? '',
    offering: p.offering ?? '',
    categories: p.categories,
    type: p.type,
    street: p.street ?? '',
    house_number: p.house_number ?? '',
    city: p.city ?? '',
    state: p.state ?? '',
    zipcode: p.zipcode ?? '',
    visible: p.profile_visibility === 1,
    preferred_language: p.preferred_language === 'en' ? 'en' : 'de',
    social: Object.fromEntries(SOCIAL_NETWORKS.map(([key]) => [key, links[key] ?? ''])),
  };
};

const nullable = (s: string) => (s.trim() === '' ? null : s.trim());

const toUpdates = (v: Values): ProfileUpdates => ({
  firstname: v.firstname.trim(),
  lastname: v.lastname.trim(),
  headline: nullable(v.headline),
  bio: nullable(v.bio),
  skills: v.skills,
  looking_for: nullable(v.looking_for),
  offering: nullable(v.offering),
  categories: v.categories as Category[],
  type: v.type,
  street: nullable(v.street),
  house_number: nullable(v.house_number),
  city: nullable(v.city),
  state: nullable(v.state),
  zipcode: nullable(v.zipcode),
  profile_visibility: v.visible ? 1 : 0,
  preferred_language: v.preferred_language,
  social_links: Object.fromEntries(Object.entries(v.social).filter(([, url]) => url.trim() !== '').map(([k, url]) => [k, url.trim()])),
});

/** Every editable profile field of spec §3 in one form, saved through update-user (issue 6 settings). */
export function ProfileForm({ profile }: { profile: OwnProfile }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const form = useForm<Values>({
    initialValues: toValues(profile),
    validate: (values) => Object.fromEntries(Object.entries(zodValidate(schema)(values)).map(([k, id]) => [k, intl.formatMessage({ id })])),
  });
  const save = useMutation({
    mutationFn: (values: Values) => updateOwnProfile(toUpdates(values)),
    onSuccess: async () => {
      notify('success', intl.formatMessage({ id: 'account.settings.saved' }));
      await queryClient.invalidateQueries({ queryKey: ['own-profile'] });
    },
    onError: (err) => notify('error', err.message),
  });
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack>
        <Fieldset legend={t('account.settings.profileSection')}>
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('auth.field.firstname')} required {...form.getInputProps('firstname')} />
              <TextInput label={t('auth.field.lastname')} required {...form.getInputProps('lastname')} />
            </SimpleGrid>
            <TextInput label={t('account.field.headline')} maxLength={160} {...form.getInputProps('headline')} />
            <Textarea label={t('account.field.bio')} autosize minRows={3} maxLength={5000} {...form.getInputProps('bio')} />
            <TagsField label={t('account.field.skills')} maxTags={50} {...form.getInputProps('skills')} />
            <Textarea label={t('account.field.lookingFor')} autosize minRows={2} maxLength={2000} {...form.getInputProps('looking_for')} />
            <Textarea label={t('account.field.offering')} autosize minRows={2} maxLength={2000} {...form.getInputProps('offering')} />
            <MultiSelectField
              label={t('account.field.categories')}
              data={Object.entries(CATEGORY_IDS).map(([value, id]) => ({ value, label: t(id) }))}
              maxValues={10}
              {...form.getInputProps('categories')}
            />
            <Radio.Group label={t('auth.field.type')} {...form.getInputProps('type')}>
              <Group mt="xs">
                <Radio value="business" label={t('auth.type.business')} />
                <Radio value="other" label={t('auth.type.other')} />
              </Group>
            </Radio.Group>
          </Stack>
        </Fieldset>
        <Fieldset legend={t('account.settings.addressSection')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('account.field.street')} autoComplete="address-line1" {...form.getInputProps('street')} />
            <TextInput label={t('account.field.houseNumber')} {...form.getInputProps('house_number')} />
            <TextInput label={t('account.field.zipcode')} autoComplete="postal-code" {...form.getInputProps('zipcode')} />
            <TextInput label={t('account.field.city')} autoComplete="address-level2" {...form.getInputProps('city')} />
            <TextInput label={t('account.field.state')} autoComplete="address-level1" {...form.getInputProps('state')} />
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend={t('account.settings.socialSection')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {SOCIAL_NETWORKS.map(([key, label]) => (
              <TextInput key={key} label={label} type="url" placeholder="https://" {...form.getInputProps(`social.${key}`)} />
            ))}
          </SimpleGrid>
        </Fieldset>
        <Fieldset legend={t('account.settings.privacySection')}>
          <Stack>
            <Switch label={t('account.field.visible')} description={t('account.field.visibleHint')} styles={{ description: { color: 'var(--tw-muted)' } }} {...form.getInputProps('visible', { type: 'checkbox' })} />
            <Select
              label={t('account.field.language')}
              data={[
                { value: 'de', label: 'Deutsch' },
                { value: 'en', label: 'English' },
              ]}
              allowDeselect={false}
              {...form.getInputProps('preferred_language')}
            />
          </Stack>
        </Fieldset>
        <Group>
          <Button type="submit" loading={save.isPending}>
            <FormattedMessage id="account.settings.save" />
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
