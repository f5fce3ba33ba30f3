import { Button, Card, Checkbox, Fieldset, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { MultiSelectField } from '@/components/pill-inputs';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { z } from 'zod';
import { LoadError, LoadingState } from '@/components/query-state';
import { notify } from '@/lib/notify';
import { zodValidate } from '@/lib/zod-form';
import { skillsQuery } from '../api/get-match-profiles';
import { COMMITMENTS, MATCH_ROLES, type MatchCommitment, MATCHING_KEY, type MatchRole } from '../api/match-profile';
import { matchingErrorId } from '../api/matching-errors';
import { deleteOpenRole, type OpenRoleRow, openRolesQuery, saveOpenRole } from '../api/open-roles';
import { commitmentId, roleId, skillLabel } from './labels';
import { TeamGap } from './team-gap';

const schema = z.object({
  role: z.string().min(1, 'matching.error.roleRequired'),
  title: z.string().trim().max(100, 'matching.error.titleTooLong'),
  skills: z.array(z.string()).max(15, 'matching.error.tooManySkills'),
  commitment: z.string(),
});
type Values = z.infer<typeof schema>;

/** The most open roles a project may list (the database checks the same: P0001 open_role_limit). */
export const OPEN_ROLE_MAX = 10;

/**
 * "Open roles" section of the project edit page (issue 19, the team-gap finder): lists the
 * project's open roles (mark filled, remove), adds a role (role, title, wanted skills from the
 * vocabulary, commitment), and shows who would fill each unfilled role (TeamGap).
 */
export function OpenRolesEditor({ projectId }: { projectId: number }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const queryClient = useQueryClient();
  const roles = useQuery(openRolesQuery(projectId));
  const skills = useQuery(skillsQuery());
  const form = useForm<Values>({ mode: 'controlled', initialValues: { role: '', title: '', skills: [], commitment: '' }, validate: zodValidate(schema) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: MATCHING_KEY });
  const fail = (err: unknown) => notify('error', t(matchingErrorId(err)));
  const add = useMutation({
    mutationFn: (v: Values) =>
      saveOpenRole(projectId, null, {
        role: v.role as MatchRole,
        title: v.title.trim() || null,
        skills: v.skills,
        commitment: (v.commitment || null) as MatchCommitment | null,
        filled: false,
      }),
    onSuccess: () => {
      notify('success', t('matching.openRoles.added'));
      form.reset();
      void refresh();
    },
    onError: fail,
  });
  const toggle = useMutation({
    mutationFn: (r: OpenRoleRow) =>
      saveOpenRole(projectId, r.id, { role: r.role, title: r.title, skills: r.skills, commitment: r.commitment, filled: !r.filled }),
    onSuccess: () => void refresh(),
    onError: fail,
  });
  const remove = useMutation({ mutationFn: (id: number) => deleteOpenRole(id), onSuccess: () => void refresh(), onError: fail });
  const err = (name: string) => (form.errors[name] ? t(String(form.errors[name])) : undefined);
  const skillOptions = (skills.data ?? []).map((s) => ({ value: s.key, label: intl.locale === 'de' ? s.label_de : s.label_en }));

  return (
    <Fieldset legend={t('matching.openRoles.title')} data-testid="open-roles">
      <Stack>
        <Text fz="sm">
          <FormattedMessage id="matching.openRoles.intro" />
        </Text>
        {roles.isPending && <LoadingState messageId="matching.loading" compact />}
        {roles.isError && <LoadError messageId="matching.error.generic" onRetry={() => void roles.refetch()} />}
        {roles.data?.map((r) => (
          <Card key={r.id} withBorder padding="sm" data-testid="open-role">
            <Group justify="space-between" wrap="wrap">
              <div>
                <Text fw={600}>
                  {r.title ? `${r.title} · ` : ''}
                  {t(roleId(r.role))}
                  {r.commitment ? ` · ${t(commitmentId(r.commitment))}` : ''}
                </Text>
                {r.skills.length > 0 && (
                  <Text fz="sm" c="var(--tw-muted)">
                    {intl.formatList(r.skills.map((k) => skillLabel(skills.data, k, intl.locale)))}
                  </Text>
                )}
              </div>
              <Group gap="xs">
                <Checkbox label={t('matching.openRoles.filled')} checked={r.filled} onChange={() => toggle.mutate(r)} />
                <Button size="xs" variant="default" color="red" onClick={() => remove.mutate(r.id)}>
                  <FormattedMessage id="matching.openRoles.remove" />
                </Button>
              </Group>
            </Group>
          </Card>
        ))}
        {(roles.data?.length ?? 0) < OPEN_ROLE_MAX && (
          <form onSubmit={form.onSubmit((v) => add.mutate(v))} noValidate data-testid="open-role-form">
            <Stack gap="xs">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Select
                  label={t('matching.openRoles.role')}
                  data={MATCH_ROLES.map((k) => ({ value: k, label: t(roleId(k)) }))}
                  required
                  {...form.getInputProps('role')}
                  value={form.getValues().role || null}
                  onChange={(value) => form.setFieldValue('role', value ?? '')}
                  error={err('role')}
                />
                <TextInput label={t('matching.openRoles.roleTitle')} maxLength={100} {...form.getInputProps('title')} error={err('title')} />
                <MultiSelectField
                  label={t('matching.openRoles.skills')}
                  data={skillOptions}
                  searchable
                  maxValues={15}
                  {...form.getInputProps('skills')}
                  error={err('skills')}
                />
                <Select
                  label={t('matching.field.commitment')}
                  data={COMMITMENTS.map((k) => ({ value: k, label: t(commitmentId(k)) }))}
                  clearable
                  {...form.getInputProps('commitment')}
                  value={form.getValues().commitment || null}
                  onChange={(value) => form.setFieldValue('commitment', value ?? '')}
                />
              </SimpleGrid>
              <Group>
                <Button type="submit" variant="light" loading={add.isPending} data-testid="open-role-add">
                  <FormattedMessage id="matching.openRoles.add" />
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        {(roles.data?.length ?? 0) > 0 && (
          <Stack gap="xs">
            <Text fw={600}>
              <FormattedMessage id="matching.teamGap.title" />
            </Text>
            <TeamGap projectId={projectId} />
          </Stack>
        )}
      </Stack>
    </Fieldset>
  );
}
