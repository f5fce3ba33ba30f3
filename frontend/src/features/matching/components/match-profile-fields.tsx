import { Group, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { FormattedMessage, useIntl } from 'react-intl';
import { NumberField } from '@/components/number-field';
import { MultiSelectField, TagsField } from '@/components/pill-inputs';
import { COMMITMENTS, INDUSTRIES, LANGUAGE_CODES, MATCH_KINDS, MATCH_ROLES, type MustCriterion, type Skill, STAGES } from '../api/match-profile';
import type { MatchProfileValues } from '../api/match-profile-form';
import { CRITERION_IDS } from '../api/message-ids';
import { commitmentId, industryId, kindId, roleId, stageId } from './labels';

/** The matching profile form (Mantine form of {@link MatchProfileValues}). */
type Form = UseFormReturnType<MatchProfileValues>;

/** Skill vocabulary as grouped select data, labels in the page's language. */
function skillData(skills: readonly Skill[], locale: string, t: (id: string) => string) {
  return MATCH_ROLES.map((role) => ({
    group: t(roleId(role)),
    items: skills.filter((s) => s.role === role).map((s) => ({ value: s.key, label: locale === 'de' ? s.label_de : s.label_en })),
  })).filter((g) => g.items.length > 0);
}

/** "Nice to have" / "Must have" toggle of a criterion (match_profiles.must_have). */
function MustToggle({ form, criterion }: { form: Form; criterion: MustCriterion }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <Group gap="xs" data-testid={`must-${criterion}`}>
      <Text fz="xs" c="var(--tw-muted)" id={`must-${criterion}-label`}>
        <FormattedMessage id={CRITERION_IDS[criterion]!} />
      </Text>
      <SegmentedControl
        size="xs"
        aria-labelledby={`must-${criterion}-label`}
        value={form.getValues().must[criterion] ? 'must' : 'nice'}
        onChange={(value) => form.setFieldValue('must', { ...form.getValues().must, [criterion]: value === 'must' })}
        data={[
          { value: 'nice', label: t('matching.niceToHave') },
          { value: 'must', label: t('matching.mustHave') },
        ]}
      />
    </Group>
  );
}

/**
 * The preference fields of a matching profile (issue 19 "The matching profile"): what I am and
 * seek, roles offered and sought, skills from the vocabulary plus free tags, skills sought,
 * industries, stage, commitment (a date when "later"), place (radius / remote), languages and,
 * for investors, the ticket size; each preference with its "must have" toggle.
 * @param form the editor's form; errors are message ids, shown in the page's language
 * @param skills the skill vocabulary (public.skills)
 */
export function MatchProfileFields({ form, skills }: { form: Form; skills: readonly Skill[] }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const err = (name: string) => (form.errors[name] ? t(String(form.errors[name])) : undefined);
  const v = form.getValues();
  const opts = (keys: readonly string[], id: (k: string) => string) => keys.map((k) => ({ value: k, label: t(id(k)) }));
  const skillOptions = skillData(skills, intl.locale, t);
  const languageNames = new Intl.DisplayNames([intl.locale], { type: 'language' });
  const languageOptions = LANGUAGE_CODES.map((c) => ({ value: c, label: languageNames.of(c) ?? c }));

  return (
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
        <MustToggle form={form} criterion="kind" />
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
        <MustToggle form={form} criterion="skills" />
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
        <MustToggle form={form} criterion="industries" />
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
        <MustToggle form={form} criterion="stage" />
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
        <MustToggle form={form} criterion="commitment" />
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
        <MustToggle form={form} criterion="location" />
      </Stack>
      <Stack gap={4}>
        <MultiSelectField label={t('matching.field.languages')} data={languageOptions} maxValues={10} {...form.getInputProps('languages')} />
        <MustToggle form={form} criterion="languages" />
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
  );
}
