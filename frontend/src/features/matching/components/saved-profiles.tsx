import { Button, Card, Fieldset, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { LoadError, LoadingState } from '@/components/query-state';
import { notify } from '@/lib/notify';
import { savedMatchProfilesQuery, skillsQuery } from '../api/get-match-profiles';
import { MATCHING_KEY, type MatchProfileRow } from '../api/match-profile';
import { matchingErrorId } from '../api/matching-errors';
import { deleteMatchProfile } from '../api/save-match-profile';
import { roleId } from './labels';
import { EditorForm } from './match-profile-editor';

/**
 * "Saved match profiles" of /user/settings (issue 19 custom matching, Enterprise): several named
 * profiles with their own criteria and weights (e.g. one per open position), listed with edit and
 * delete, plus "New saved profile". /matches chooses among them. Only rendered for Enterprise; the
 * database refuses saved profiles below Enterprise (PT402 enterprise_required) and more than 20.
 */
export function SavedMatchProfiles() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const queryClient = useQueryClient();
  const saved = useQuery(savedMatchProfilesQuery());
  const skills = useQuery(skillsQuery());
  const [editing, setEditing] = useState<MatchProfileRow | 'new' | null>(null);
  const [confirm, setConfirm] = useState<MatchProfileRow | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => deleteMatchProfile(id),
    onSuccess: () => {
      setConfirm(null);
      void queryClient.invalidateQueries({ queryKey: MATCHING_KEY });
    },
    onError: (err) => notify('error', t(matchingErrorId(err))),
  });
  if (saved.isPending || skills.isPending) return <LoadingState messageId="matching.loading" compact />;
  if (saved.isError || skills.isError) return <LoadError messageId="matching.error.generic" onRetry={() => void saved.refetch()} />;
  return (
    <Fieldset legend={t('matching.saved.title')} data-testid="saved-profiles">
      <Stack>
        <Text fz="sm">
          <FormattedMessage id="matching.saved.intro" />
        </Text>
        {saved.data.map((p) => (
          <Card key={p.id} withBorder padding="sm" data-testid="saved-profile">
            <Group justify="space-between">
              <div>
                <Text fw={600}>{p.name}</Text>
                <Text fz="sm" c="var(--tw-muted)">
                  {intl.formatList(p.roles_sought.map((r) => t(roleId(r))))}
                  {p.city ? ` · ${p.city}` : ''}
                </Text>
              </div>
              <Group gap="xs">
                <Button size="xs" variant="default" onClick={() => setEditing(p)}>
                  <FormattedMessage id="matching.saved.edit" />
                </Button>
                <Button size="xs" variant="light" color="red" onClick={() => setConfirm(p)}>
                  <FormattedMessage id="matching.openRoles.remove" />
                </Button>
              </Group>
            </Group>
          </Card>
        ))}
        {editing === null ? (
          <Group>
            <Button variant="light" onClick={() => setEditing('new')} data-testid="saved-profile-new">
              <FormattedMessage id="matching.saved.new" />
            </Button>
          </Group>
        ) : (
          <Stack gap="xs">
            <EditorForm
              key={editing === 'new' ? 'new' : editing.id}
              row={editing === 'new' ? null : editing}
              skills={skills.data}
              canWeigh
              saved
              onSaved={() => setEditing(null)}
            />
            <Group>
              <Button variant="subtle" onClick={() => setEditing(null)}>
                <FormattedMessage id="common.cancel" />
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirm !== null}
        title={t('matching.saved.deleteTitle')}
        message={t('matching.saved.deleteText', { name: confirm?.name ?? '' })}
        confirmLabel={t('matching.openRoles.remove')}
        loading={remove.isPending}
        onConfirm={() => confirm && remove.mutate(confirm.id)}
        onClose={() => setConfirm(null)}
      />
    </Fieldset>
  );
}
