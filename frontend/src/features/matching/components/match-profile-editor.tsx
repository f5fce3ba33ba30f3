import { Alert, Button, Fieldset, Group, Progress, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { NumberField } from '@/components/number-field';
import { LoadError, LoadingState } from '@/components/query-state';
import { notify } from '@/lib/notify';
import { zodValidate } from '@/lib/zod-form';
import { matchProfileCompleteness } from '../api/completeness';
import { ownMatchProfileQuery, skillsQuery } from '../api/get-match-profiles';
import { DEFAULT_WEIGHTS, MATCHING_KEY, type MatchProfileRow, type Skill, type WeightCriterion } from '../api/match-profile';
import { matchProfileSchema, type MatchProfileValues, toInput, toValues } from '../api/match-profile-form';
import { matchingErrorId } from '../api/matching-errors';
import { FIELD_IDS, WEIGHT_IDS } from '../api/message-ids';
import { saveMatchProfile } from '../api/save-match-profile';
import { MatchProfileFields } from './match-profile-fields';

/**
 * The "Matching profile" section of /user/settings (issue 19 "The matching profile"): what I am,
 * roles offered and sought, skills from the vocabulary plus free tags, skills sought, industries,
 * stage, commitment, place (radius / remote; the city is the profile's city), languages, investor
 * ticket size, each preference "must have" or "nice to have", and a completeness meter with the
 * next most useful field. Saves through supabase-js (RLS and the trigger decide).
 */
export function MatchProfileEditor({ plan }: { plan: string }) {
  const profile = useQuery(ownMatchProfileQuery());
  const skills = useQuery(skillsQuery());
  if (profile.isPending || skills.isPending) return <LoadingState messageId="matching.loading" compact />;
  if (profile.isError || skills.isError)
    return (
      <LoadError
        messageId="matching.error.generic"
        onRetry={() => {
          void profile.refetch();
          void skills.refetch();
        }}
      />
    );
  const canWeigh = ['premium', 'enterprise', 'admin'].includes(plan);
  return <EditorForm key={profile.data?.updated_at ?? 'new'} row={profile.data} skills={skills.data} canWeigh={canWeigh} />;
}

/**
 * The form of one matching profile: the primary one (saved = false) or an Enterprise saved match
 * profile (saved = true: with a name and an optional city to match around, no completeness meter).
 */
export function EditorForm({
  row,
  skills,
  canWeigh,
  saved = false,
  onSaved,
}: {
  row: MatchProfileRow | null;
  skills: Skill[];
  canWeigh: boolean;
  saved?: boolean;
  onSaved?: () => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const queryClient = useQueryClient();
  const form = useForm<MatchProfileValues>({ mode: 'controlled', initialValues: toValues(row, saved), validate: zodValidate(matchProfileSchema) });
  const save = useMutation({
    mutationFn: (values: MatchProfileValues) => saveMatchProfile(row?.id ?? null, toInput(values, canWeigh), !saved),
    onSuccess: () => {
      notify('success', t('matching.profile.saved'));
      void queryClient.invalidateQueries({ queryKey: MATCHING_KEY });
      onSaved?.();
    },
    // the error shows once, in the form's alert (issue 33 §8)
  });
  const err = (name: string) => (form.errors[name] ? t(String(form.errors[name])) : undefined);
  const v = form.getValues();
  const completeness = matchProfileCompleteness({ ...(row ?? ({} as MatchProfileRow)), ...toInput(v) } as MatchProfileRow);

  return (
    <Fieldset
      legend={saved ? t('matching.saved.editor') : t('matching.profile.title')}
      id={saved ? undefined : 'matching'}
      data-testid={saved ? 'saved-profile-editor' : 'match-profile-editor'}
    >
      <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
        <Stack>
          <Text fz="sm">
            <FormattedMessage id="matching.profile.intro" />
          </Text>
          {saved && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('matching.saved.name')} required maxLength={100} {...form.getInputProps('name')} error={err('name')} />
              <TextInput
                label={t('matching.saved.city')}
                description={t('matching.saved.cityHint')}
                maxLength={100}
                {...form.getInputProps('city')}
                error={err('city')}
              />
            </SimpleGrid>
          )}
          <Stack gap={4} data-testid="match-completeness" display={saved ? 'none' : undefined}>
            <Text fw={600} fz="sm">
              <FormattedMessage id="matching.completeness" values={{ percent: completeness.percent }} />
            </Text>
            <Progress value={completeness.percent} aria-label={t('matching.completenessLabel')} />
            {completeness.next && (
              <Text fz="sm" c="var(--tw-muted)" data-testid="match-next-field">
                <FormattedMessage id="matching.nextField" values={{ field: t(FIELD_IDS[completeness.next]!) }} />
              </Text>
            )}
          </Stack>
          <MatchProfileFields form={form} skills={skills} />
          {canWeigh && (
            <Fieldset legend={t('matching.weights.title')} variant="filled" data-testid="match-weights">
              <Text fz="sm" mb="xs">
                <FormattedMessage id="matching.weights.hint" />
              </Text>
              <SimpleGrid cols={{ base: 2, sm: 4 }}>
                {(Object.keys(DEFAULT_WEIGHTS) as WeightCriterion[]).map((c) => (
                  <NumberField
                    hideControls
                    key={c}
                    label={t(WEIGHT_IDS[c]!)}
                    min={0}
                    max={100}
                    allowDecimal={false}
                    {...form.getInputProps(`weights.${c}`)}
                    error={err(`weights.${c}`)}
                  />
                ))}
              </SimpleGrid>
            </Fieldset>
          )}
          {!saved && <Switch label={t('matching.field.active')} {...form.getInputProps('active', { type: 'checkbox' })} />}
          {save.isError && (
            <Alert color="red" role="alert">
              <FormattedMessage id={matchingErrorId(save.error)} />
            </Alert>
          )}
          <Group>
            <Button type="submit" loading={save.isPending} data-testid="match-profile-save">
              <FormattedMessage id="matching.profile.save" />
            </Button>
          </Group>
        </Stack>
      </form>
    </Fieldset>
  );
}
