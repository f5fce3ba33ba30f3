import { Alert, Button, ColorSwatch, Fieldset, Group, Loader, Radio, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { z } from 'zod';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { notify } from '@/lib/notify';
import { zodValidate } from '@/lib/zod-form';
import type { OwnProfile } from '@/lib/own-profile';
import {
  hasPremiumProfile,
  ownPublishedProjectsQuery,
  PROFILE_ACCENTS,
  premiumErrorId,
  savePremiumProfile,
  TAGLINE_MAX,
  type ProfileAccent,
} from '../api/premium-profile';

/** Message ids of the accent colour names. */
export const ACCENT_IDS: Record<ProfileAccent, string> = {
  blue: 'premiumProfile.accent.blue',
  teal: 'premiumProfile.accent.teal',
  green: 'premiumProfile.accent.green',
  violet: 'premiumProfile.accent.violet',
  grape: 'premiumProfile.accent.grape',
  orange: 'premiumProfile.accent.orange',
  red: 'premiumProfile.accent.red',
};

const schema = z.object({
  accent: z.string(),
  tagline: z.string().trim().max(TAGLINE_MAX, 'premiumProfile.error.taglineTooLong'),
  featured: z.string(),
  badge: z.boolean(),
});
type Values = z.infer<typeof schema>;

/**
 * "Premium profile" section of /user/settings (spec §6 premium profile settings): for premium and
 * enterprise users a form for accent, tagline, featured project and badge; for everyone else an
 * explanation with a link to /prices.
 */
export function PremiumProfileSettings({ profile }: { profile: OwnProfile }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  if (!hasPremiumProfile(profile.user_role)) {
    return (
      <Fieldset legend={t('premiumProfile.title')} data-testid="premium-profile-upsell">
        <Stack align="flex-start">
          <Text>
            <FormattedMessage id="premiumProfile.upsell" />
          </Text>
          <LocalButtonLink to={paths.prices} variant="light">
            <FormattedMessage id="premiumProfile.upgrade" />
          </LocalButtonLink>
        </Stack>
      </Fieldset>
    );
  }
  return <PremiumProfileForm profile={profile} />;
}

function PremiumProfileForm({ profile }: { profile: OwnProfile }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const queryClient = useQueryClient();
  const projects = useQuery(ownPublishedProjectsQuery(profile.id));
  const form = useForm<Values>({
    initialValues: {
      accent: profile.profile_accent ?? '',
      tagline: profile.profile_tagline ?? '',
      featured: profile.featured_project_id == null ? '' : String(profile.featured_project_id),
      badge: profile.show_premium_badge,
    },
    validate: (values) => Object.fromEntries(Object.entries(zodValidate(schema)(values)).map(([k, id]) => [k, t(id)])),
  });
  const save = useMutation({
    mutationFn: (v: Values) =>
      savePremiumProfile(profile.id, {
        profile_accent: v.accent === '' ? null : (v.accent as ProfileAccent),
        profile_tagline: v.tagline.trim() === '' ? null : v.tagline.trim(),
        featured_project_id: v.featured === '' ? null : Number(v.featured),
        show_premium_badge: v.badge,
      }),
    onSuccess: async () => {
      notify('success', t('premiumProfile.saved'));
      await queryClient.invalidateQueries({ queryKey: ['own-profile'] });
    },
    onError: (err) => notify('error', t(premiumErrorId(err) ?? 'premiumProfile.error.generic')),
  });
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate data-testid="premium-profile-form">
      <Fieldset legend={t('premiumProfile.title')}>
        <Stack>
          <Text size="sm">
            <FormattedMessage id="premiumProfile.intro" />
          </Text>
          <Radio.Group label={t('premiumProfile.accent.label')} {...form.getInputProps('accent')}>
            <Group mt="xs" gap="md">
              <Radio value="" label={t('premiumProfile.accent.none')} />
              {PROFILE_ACCENTS.map((accent) => (
                <Radio
                  key={accent}
                  value={accent}
                  label={
                    <Group gap={6} wrap="nowrap">
                      <ColorSwatch color={`var(--mantine-color-${accent}-7)`} size={16} aria-hidden />
                      {t(ACCENT_IDS[accent])}
                    </Group>
                  }
                />
              ))}
            </Group>
          </Radio.Group>
          <TextInput
            label={t('premiumProfile.tagline')}
            description={t('premiumProfile.taglineHint')}
            maxLength={TAGLINE_MAX}
            styles={{ description: { color: 'var(--tw-muted)' } }}
            {...form.getInputProps('tagline')}
          />
          {projects.isPending && <Loader size="sm" aria-label={t('auth.loading')} />}
          {projects.isError && (
            <Alert color="red" role="alert">
              {projects.error.message}
            </Alert>
          )}
          {projects.data && (
            <Select
              label={t('premiumProfile.featured')}
              description={projects.data.length === 0 ? t('premiumProfile.featuredEmpty') : undefined}
              styles={{ description: { color: 'var(--tw-muted)' } }}
              data={[{ value: '', label: t('premiumProfile.featuredNone') }, ...projects.data.map((p) => ({ value: String(p.id), label: p.title }))]}
              allowDeselect={false}
              {...form.getInputProps('featured')}
            />
          )}
          <Switch label={t('premiumProfile.badge')} {...form.getInputProps('badge', { type: 'checkbox' })} />
          <Group>
            <Button type="submit" loading={save.isPending}>
              <FormattedMessage id="premiumProfile.save" />
            </Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}
