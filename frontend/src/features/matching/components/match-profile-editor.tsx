import { Alert, Button, Fieldset, Group, Progress, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { NumberField } from '@/components/number-field';
import { MultiSelectField, TagsField } from '@/components/pill-inputs';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { z } from 'zod';
import { LoadError, LoadingState } from '@/components/query-state';
import { notify } from '@/lib/notify';
import { zodValidate } from '@/lib/zod-form';
import { matchProfileCompleteness } from '../api/completeness';
import { CRITERION_IDS, FIELD_IDS, WEIGHT_IDS } from '../api/message-ids';
import { ownMatchProfileQuery, skillsQuery } from '../api/get-match-profiles';
import { COMMITMENTS, DEFAULT_WEIGHTS, INDUSTRIES, LANGUAGE_CODES, MATCH_KINDS, MATCH_ROLES, MATCHING_KEY, type MatchProfileInput, type MatchProfileRow, type MustCriterion, type Skill, STAGES, type WeightCriterion } from '../api/match-profile';
import { matchingErrorId } from '../api/matching-errors';
import { saveMatchProfile } from '../api/save-match-profile';
import { commitmentId, industryId, kindId, roleId, stageId } from './labels';

const TAG_MAX = 40;

/** Form values: enums and arrays as strings, numbers possibly empty (Mantine inputs). */
const schema = z
  .object({
    saved: z.boolean(),
    name: z.string().trim().max(100, 'matching.error.titleTooLong'),
    city: z.string().trim().max(100, 'matching.error.titleTooLong'),
    active: z.boolean(),
    kind: z.string(),
    kinds_sought: z.array(z.string()).max(6),
    roles_offered: z.array(z.string()).max(10),
    roles_sought: z.array(z.string()).max(10),
    skills: z.array(z.string()).max(30, 'matching.error.tooManySkills'),
    skill_tags: z.array(z.string().trim().min(1).max(TAG_MAX, 'matching.error.tagTooLong')).max(20, 'matching.error.tooManyTags'),
    skills_sought: z.array(z.string()).max(30, 'matching.error.tooManySkills'),
    industries: z.array(z.string()),
    idea_stage: z.string(),
    stages_sought: z.array(z.string()),
    commitment: z.string(),
    available_from: z.string(),
    remote_ok: z.boolean(),
    radius_km: z.number({ message: 'matching.error.radius' }).int().min(1, 'matching.error.radius').max(1000, 'matching.error.radius'),
    languages: z.array(z.string().regex(/^[a-z]{2}$/)).max(10),
    ticket_min_eur: z.union([z.number().int().min(0, 'matching.error.ticket'), z.literal('')]),
    ticket_max_eur: z.union([z.number().int().min(0, 'matching.error.ticket'), z.literal('')]),
    must: z.record(z.string(), z.boolean()),
    weights: z.record(z.string(), z.union([z.number().int().min(0, 'matching.error.weight').max(100, 'matching.error.weight'), z.literal('')])),
  })
  .refine((v) => !v.saved || v.name.trim().length > 0, { path: ['name'], message: 'matching.error.nameRequired' })
  .refine((v) => v.commitment !== 'later' || /^\d{4}-\d{2}-\d{2}$/.test(v.available_from), {
    path: ['available_from'],
    message: 'matching.error.availableFrom',
  })
  .refine((v) => v.ticket_min_eur === '' || v.ticket_max_eur === '' || v.ticket_min_eur <= v.ticket_max_eur, {
    path: ['ticket_max_eur'],
    message: 'matching.error.ticketRange',
  });
type Values = z.infer<typeof schema>;

/** Form values of a stored profile (or of an empty one). */
function toValues(p: MatchProfileRow | null, saved: boolean): Values {
  return {
    saved,
    name: p?.name ?? '',
    city: p?.city ?? '',
    active: p?.active ?? true,
    kind: p?.kind ?? '',
    kinds_sought: p?.kinds_sought ?? [],
    roles_offered: p?.roles_offered ?? [],
    roles_sought: p?.roles_sought ?? [],
    skills: p?.skills ?? [],
    skill_tags: p?.skill_tags ?? [],
    skills_sought: p?.skills_sought ?? [],
    industries: p?.industries ?? [],
    idea_stage: p?.idea_stage ?? '',
    stages_sought: p?.stages_sought ?? [],
    commitment: p?.commitment ?? '',
    available_from: p?.available_from ?? '',
    remote_ok: p?.remote_ok ?? false,
    radius_km: p?.radius_km ?? 50,
    languages: p?.languages ?? [],
    ticket_min_eur: p?.ticket_min_eur ?? '',
    ticket_max_eur: p?.ticket_max_eur ?? '',
    must: Object.fromEntries((p?.must_have ?? []).map((m) => [m, true])),
    weights: { ...DEFAULT_WEIGHTS, ...((p?.weights ?? {}) as Record<string, number>) },
  };
}

/**
 * The row to write from valid form values (empty → null). Own weights (only those that differ
 * from the defaults) are written only when the plan allows them (`canWeigh`, Premium/Enterprise).
 */
function toInput(v: Values, canWeigh = false): MatchProfileInput {
  const orNull = <T extends string>(s: string) => (s === '' ? null : (s as T));
  const investor = v.kind === 'investor';
  return {
    name: v.saved ? v.name.trim() : null,
    active: v.active,
    kind: orNull(v.kind),
    kinds_sought: v.kinds_sought as MatchProfileInput['kinds_sought'],
    roles_offered: v.roles_offered as MatchProfileInput['roles_offered'],
    roles_sought: v.roles_sought as MatchProfileInput['roles_sought'],
    skills: v.skills,
    skill_tags: v.skill_tags.map((t) => t.trim()),
    skills_sought: v.skills_sought,
    industries: v.industries as MatchProfileInput['industries'],
    idea_stage: orNull(v.idea_stage),
    stages_sought: v.stages_sought as MatchProfileInput['stages_sought'],
    commitment: orNull(v.commitment),
    available_from: v.commitment === 'later' ? v.available_from : null,
    city: v.saved && v.city.trim() ? v.city.trim() : null,
    remote_ok: v.remote_ok,
    radius_km: v.radius_km,
    languages: v.languages,
    ticket_min_eur: investor && v.ticket_min_eur !== '' ? v.ticket_min_eur : null,
    ticket_max_eur: investor && v.ticket_max_eur !== '' ? v.ticket_max_eur : null,
    must_have: Object.entries(v.must)
      .filter(([, on]) => on)
      .map(([k]) => k),
    ...(canWeigh
      ? {
          weights: Object.fromEntries(
            Object.entries(v.weights).filter(([k, w]) => w !== '' && w !== DEFAULT_WEIGHTS[k as WeightCriterion]) as [string, number][],
          ),
        }
      : {}),
  };
}

/** Skill vocabulary as grouped select data, labels in the page's language. */
function skillData(skills: readonly Skill[], locale: string, t: (id: string) => string) {
  return MATCH_ROLES.map((role) => ({
    group: t(roleId(role)),
    items: skills.filter((s) => s.role === role).map((s) => ({ value: s.key, label: locale === 'de' ? s.label_de : s.label_en })),
  })).filter((g) => g.items.length > 0);
}

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
  const form = useForm<Values>({ mode: 'controlled', initialValues: toValues(row, saved), validate: zodValidate(schema) });
  const save = useMutation({
    mutationFn: (values: Values) => saveMatchProfile(row?.id ?? null, toInput(values, canWeigh), !saved),
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
  const opts = (keys: readonly string[], id: (k: string) => string) => keys.map((k) => ({ value: k, label: t(id(k)) }));
  const skillOptions = skillData(skills, intl.locale, t);
  const languageNames = new Intl.DisplayNames([intl.locale], { type: 'language' });
  const languageOptions = LANGUAGE_CODES.map((c) => ({ value: c, label: languageNames.of(c) ?? c }));

  /** "Nice to have" / "Must have" toggle of a criterion. */
  const must = (criterion: MustCriterion): ReactNode => (
    <Group gap="xs" data-testid={`must-${criterion}`}>
      <Text fz="xs" c="var(--tw-muted)" id={`must-${criterion}-label`}>
        <FormattedMessage id={CRITERION_IDS[criterion]!} />
      </Text>
      <SegmentedControl
        size="xs"
        aria-labelledby={`must-${criterion}-label`}
        value={v.must[criterion] ? 'must' : 'nice'}
        onChange={(value) => form.setFieldValue('must', { ...form.getValues().must, [criterion]: value === 'must' })}
        data={[
          { value: 'nice', label: t('matching.niceToHave') },
          { value: 'must', label: t('matching.mustHave') },
        ]}
      />
    </Group>
  );

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
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label={t('matching.field.kind')}
              data={opts(MATCH_KINDS, kindId)}
              clearable
              {...form.getInputProps('kind')}
              value={v.kind || null}
              onChange={(value) => form.setFieldValue('kind', value ?? '')}
            />
            <Stack gap={4}>
              <MultiSelectField label={t('matching.field.kinds_sought')} data={opts(MATCH_KINDS, kindId)} {...form.getInputProps('kinds_sought')} />
              {must('kind')}
            </Stack>
            <MultiSelectField
              label={t('matching.field.roles_offered')}
              description={t('matching.field.roles_offeredHint')}
              data={opts(MATCH_ROLES, roleId)}
              {...form.getInputProps('roles_offered')}
            />
            <MultiSelectField
              label={t('matching.field.roles_sought')}
              description={t('matching.field.roles_soughtHint')}
              data={opts(MATCH_ROLES, roleId)}
              {...form.getInputProps('roles_sought')}
            />
            <MultiSelectField
              label={t('matching.field.skills')}
              data={skillOptions}
              searchable
              maxValues={30}
              {...form.getInputProps('skills')}
              error={err('skills')}
            />
            <Stack gap={4}>
              <MultiSelectField
                label={t('matching.field.skills_sought')}
                data={skillOptions}
                searchable
                maxValues={30}
                {...form.getInputProps('skills_sought')}
                error={err('skills_sought')}
              />
              {must('skills')}
            </Stack>
            <TagsField
              label={t('matching.field.skill_tags')}
              description={t('matching.field.skill_tagsHint')}
              maxTags={20}
              {...form.getInputProps('skill_tags')}
              error={
                err('skill_tags') ??
                Object.keys(form.errors)
                  .filter((k) => k.startsWith('skill_tags.'))
                  .map((k) => t(String(form.errors[k])))[0]
              }
            />
            <Stack gap={4}>
              <MultiSelectField label={t('matching.field.industries')} data={opts(INDUSTRIES, industryId)} {...form.getInputProps('industries')} />
              {must('industries')}
            </Stack>
            <Select
              label={t('matching.field.idea_stage')}
              data={opts(STAGES, stageId)}
              clearable
              {...form.getInputProps('idea_stage')}
              value={v.idea_stage || null}
              onChange={(value) => form.setFieldValue('idea_stage', value ?? '')}
            />
            <Stack gap={4}>
              <MultiSelectField label={t('matching.field.stages_sought')} data={opts(STAGES, stageId)} {...form.getInputProps('stages_sought')} />
              {must('stage')}
            </Stack>
            <Stack gap={4}>
              <Select
                label={t('matching.field.commitment')}
                data={opts(COMMITMENTS, commitmentId)}
                clearable
                {...form.getInputProps('commitment')}
                value={v.commitment || null}
                onChange={(value) => form.setFieldValue('commitment', value ?? '')}
              />
              {must('commitment')}
            </Stack>
            {v.commitment === 'later' ? (
              <TextInput type="date" label={t('matching.field.available_from')} {...form.getInputProps('available_from')} error={err('available_from')} />
            ) : (
              <span />
            )}
            <Stack gap={4}>
              <NumberField
                hideControls
                label={t('matching.field.radius_km')}
                description={t('matching.field.radius_kmHint')}
                min={1}
                max={1000}
                allowDecimal={false}
                {...form.getInputProps('radius_km')}
                error={err('radius_km')}
              />
              <Switch label={t('matching.field.remote_ok')} {...form.getInputProps('remote_ok', { type: 'checkbox' })} />
              {must('location')}
            </Stack>
            <Stack gap={4}>
              <MultiSelectField label={t('matching.field.languages')} data={languageOptions} maxValues={10} {...form.getInputProps('languages')} />
              {must('languages')}
            </Stack>
            {v.kind === 'investor' && (
              <>
                <NumberField
                  hideControls
                  label={t('matching.field.ticket_min_eur')}
                  min={0}
                  allowDecimal={false}
                  thousandSeparator={intl.locale === 'de' ? '.' : ','}
                  decimalSeparator={intl.locale === 'de' ? ',' : '.'}
                  {...form.getInputProps('ticket_min_eur')}
                  error={err('ticket_min_eur')}
                />
                <NumberField
                  hideControls
                  label={t('matching.field.ticket_max_eur')}
                  min={0}
                  allowDecimal={false}
                  thousandSeparator={intl.locale === 'de' ? '.' : ','}
                  decimalSeparator={intl.locale === 'de' ? ',' : '.'}
                  {...form.getInputProps('ticket_max_eur')}
                  error={err('ticket_max_eur')}
                />
              </>
            )}
          </SimpleGrid>
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
