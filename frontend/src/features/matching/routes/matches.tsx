import { Button, Card, Group, Select, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { NumberField } from '@/components/number-field';
import { MultiSelectField } from '@/components/pill-inputs';
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { LoadingState } from '@/components/query-state';
import { notify } from '@/lib/notify';
import { ownMatchProfileQuery, savedMatchProfilesQuery, skillsQuery } from '../api/get-match-profiles';
import { COMMITMENTS, INDUSTRIES, LANGUAGE_CODES, MATCH_KINDS, MATCH_ROLES, MATCHING_KEY } from '../api/match-profile';
import { exportMatchesCsv, fetchMatches, type MatchFilters } from '../api/matches';
import { matchingErrorId } from '../api/matching-errors';
import { EMPTY_FILTERS as EMPTY, type FilterValues, toFilters } from '../api/filters';
import { commitmentId, industryId, kindId, roleId } from '../components/labels';
import { MatchErrorNotice, MatchResults } from '../components/match-results';

/** Matches per page on /matches. */
export const MATCHES_PAGE_SIZE = 10;

/**
 * /matches (issue 19, Premium and Enterprise): all matches with filters (kind, roles, skills,
 * industries, commitment, languages, remote, city + radius, minimum score) and cursor paging
 * ("Show more"); Enterprise chooses one of its saved match profiles and downloads the matches as
 * CSV (export_matches_csv). Lower plans see their page of matches and the upgrade path; the
 * database refuses filters below Premium (PT402).
 */
export default function MatchesRoute() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [draft, setDraft] = useState<FilterValues>(EMPTY);
  const [applied, setApplied] = useState<MatchFilters>({});
  const [profileId, setProfileId] = useState<string | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const skills = useQuery(skillsQuery());
  const saved = useQuery(savedMatchProfilesQuery());
  // issue 33 §14: without a primary matching profile match_people can only answer 404
  // match_profile_missing, so the page says so itself and does not ask
  const own = useQuery(ownMatchProfileQuery());
  const noProfile = profileId === null && own.data === null;
  const pages = useInfiniteQuery({
    enabled: profileId !== null || !!own.data,
    queryKey: [...MATCHING_KEY, 'people', 'list', profileId, applied],
    queryFn: ({ pageParam }) => fetchMatches(profileId, applied, MATCHES_PAGE_SIZE, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    retry: false,
  });
  const csv = useMutation({
    mutationFn: () => exportMatchesCsv(profileId, applied),
    onSuccess: (text) => {
      const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = 'matches.csv';
      a.click();
      URL.revokeObjectURL(url);
    },
    onError: (err) => notify('error', t(matchingErrorId(err))),
  });
  const first = pages.data?.pages[0];
  const plan = first?.plan;
  const full = plan === 'premium' || plan === 'enterprise' || plan === 'admin';
  const enterprise = plan === 'enterprise' || plan === 'admin';
  const opts = (keys: readonly string[], id: (k: string) => string) => keys.map((k) => ({ value: k, label: t(id(k)) }));
  const languageNames = new Intl.DisplayNames([intl.locale], { type: 'language' });
  const set = <K extends keyof FilterValues>(k: K, value: FilterValues[K]) => setDraft((d) => ({ ...d, [k]: value }));

  return (
    <Stack>
      <Title order={1}>
        <FormattedMessage id="page.matches.title" />
      </Title>
      {enterprise && (
        <Group align="flex-end">
          <Select
            label={t('matching.matches.profile')}
            data={[{ value: '', label: t('matching.matches.primary') }, ...(saved.data ?? []).map((p) => ({ value: p.id, label: p.name ?? p.id }))]}
            value={profileId ?? ''}
            onChange={(value) => setProfileId(value || null)}
            allowDeselect={false}
            data-testid="saved-profile-select"
          />
          <Button variant="default" loading={csv.isPending} onClick={() => csv.mutate()} data-testid="matches-csv">
            <FormattedMessage id="matching.matches.csv" />
          </Button>
        </Group>
      )}
      {full && (
        <Card withBorder padding="md" component="form" data-testid="match-filters" onSubmit={(e) => (e.preventDefault(), setApplied(toFilters(draft)))}>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            <MultiSelectField label={t('matching.filter.kinds')} data={opts(MATCH_KINDS, kindId)} value={draft.kinds} onChange={(v) => set('kinds', v)} />
            <MultiSelectField label={t('matching.filter.roles')} data={opts(MATCH_ROLES, roleId)} value={draft.roles} onChange={(v) => set('roles', v)} />
            <MultiSelectField
              label={t('matching.filter.skills')}
              searchable
              data={(skills.data ?? []).map((s) => ({ value: s.key, label: intl.locale === 'de' ? s.label_de : s.label_en }))}
              value={draft.skills}
              onChange={(v) => set('skills', v)}
            />
            <MultiSelectField
              label={t('matching.filter.industries')}
              data={opts(INDUSTRIES, industryId)}
              value={draft.industries}
              onChange={(v) => set('industries', v)}
            />
            <MultiSelectField
              label={t('matching.filter.commitment')}
              data={opts(COMMITMENTS, commitmentId)}
              value={draft.commitment}
              onChange={(v) => set('commitment', v)}
            />
            <MultiSelectField
              label={t('matching.filter.languages')}
              data={LANGUAGE_CODES.map((c) => ({ value: c, label: languageNames.of(c) ?? c }))}
              value={draft.languages}
              onChange={(v) => set('languages', v)}
            />
            <TextInput label={t('matching.filter.city')} value={draft.city} onChange={(e) => set('city', e.currentTarget.value)} />
            <NumberField
              label={t('matching.filter.radius')}
              min={1}
              max={1000}
              allowDecimal={false}
              value={draft.radius_km}
              onChange={(v) => set('radius_km', v)}
            />
            <NumberField
              label={t('matching.filter.minScore')}
              min={0}
              max={100}
              allowDecimal={false}
              value={draft.min_score}
              onChange={(v) => set('min_score', v)}
            />
          </SimpleGrid>
          <Group mt="sm">
            <Switch label={t('matching.filter.remote')} checked={draft.remote} onChange={(e) => set('remote', e.currentTarget.checked)} />
            <Button type="submit" data-testid="match-filters-apply">
              <FormattedMessage id="matching.filter.apply" />
            </Button>
            <Button
              variant="subtle"
              onClick={() => {
                setDraft(EMPTY);
                setApplied({});
              }}
            >
              <FormattedMessage id="matching.filter.reset" />
            </Button>
          </Group>
        </Card>
      )}
      {noProfile && <MatchErrorNotice error={new Error('match_profile_missing')} />}
      {own.isError && profileId === null && <MatchErrorNotice error={own.error} />}
      {!noProfile && pages.isPending && <LoadingState messageId="matching.loading" />}
      {pages.isError && <MatchErrorNotice error={pages.error} />}
      {first && (
        <>
          {full && (
            <Text fz="sm" c="var(--tw-muted)" data-testid="matches-total">
              <FormattedMessage id="matching.matches.total" values={{ count: first.count }} />
            </Text>
          )}
          <MatchResults
            page={first}
            items={pages.data?.pages.flatMap((p) => p.items) ?? []}
            hidden={hidden}
            onDeclined={(id) => setHidden((h) => new Set([...h, id]))}
          />
          {pages.hasNextPage && (
            <Group justify="center">
              <Button variant="default" loading={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()} data-testid="matches-more">
                <FormattedMessage id="matching.matches.more" />
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
