import { Alert, Anchor, Avatar, Badge, Box, Button, Group, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { lazyChunk } from '@/lib/load-chunk';
import { FormattedMessage, useIntl } from 'react-intl';
import { RichText } from '@/components/rich-text';
import { ContentCard } from '@/components/content-card';
import { LocalLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { blockedUserBySlugQuery, CATEGORY_IDS, refreshAfterBlockChange, SOCIAL_NETWORKS, unblockUser } from '@/features/user';
import { publicAvatarUrl } from '@/lib/public-api';
import { CATEGORY_LABEL } from '@/lib/categories';
import type { PageProps } from '@/lib/route-def';
import { notify } from '@/lib/notify';
import { isHttpUrl } from '@site/url';
import { PublicPortfolios } from '@/features/portfolios';
import { blockErrorMessageId } from '../api/block-errors';
import { blockUser, profileProjectsQuery, publicProfileQuery, type ResponseStats, responseStatsQuery, viewerId } from '../api/public-profile';

import { trackItem, useTrackView } from '@/lib/track';

const ConnectButton = lazyChunk(() => import('@/features/contacts').then((m) => ({ default: m.ConnectButton })));

/**
 * /u/{slug}: public profile with what visibility allows; signed-in visitors can block/unblock (spec §3,
 * issue 8). RLS hides a blocked profile from the blocker too, so when the profile is hidden and the
 * viewer blocked that person (RPC my_blocked_users by slug), the page shows the blocked notice with
 * "Unblock" instead of "not found"; someone blocked BY that person still gets "not found".
 */
export default function ProfileRoute({ params }: PageProps) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const queryClient = useQueryClient();
  const slug = params.slug ?? '';
  const profile = useQuery(publicProfileQuery(slug));
  useTrackView('profile', profile.data?.id);
  const viewer = useQuery({ queryKey: ['viewer-id'], queryFn: viewerId });
  const projects = useQuery({ ...profileProjectsQuery(profile.data?.id ?? ''), enabled: !!profile.data });
  const responseStats = useQuery({ ...responseStatsQuery(profile.data?.id ?? ''), enabled: !!profile.data });
  const hidden = profile.isSuccess && profile.data === null;
  const myBlock = useQuery({ ...blockedUserBySlugQuery(slug), enabled: hidden && !!viewer.data });
  const [justBlocked, setJustBlocked] = useState<{ id: string; name: string } | null>(null);
  const blocked =
    justBlocked ?? (hidden && myBlock.data ? { id: myBlock.data.user_id, name: myBlock.data.display_name } : null);
  const [confirmOpen, { open, close }] = useDisclosure(false);
  const block = useMutation({
    mutationFn: async () => blockUser(viewer.data!, profile.data!.id),
    onSuccess: () => {
      close();
      setJustBlocked({ id: profile.data!.id, name: profile.data!.display_name ?? '' });
      notify('success', t('profile.block.done'));
      void refreshAfterBlockChange(queryClient);
    },
    onError: (err) => notify('error', t(blockErrorMessageId(err))),
  });
  const unblock = useMutation({
    mutationFn: async () => unblockUser(blocked!.id),
    onSuccess: async () => {
      // refetch first (profile visible again, by-slug entry gone), then leave the blocked state
      await refreshAfterBlockChange(queryClient);
      setJustBlocked(null);
      notify('success', t('profile.unblock.done'));
    },
    onError: () => notify('error', t('blockedUsers.error.unblock')),
  });

  if (blocked) {
    return (
      <Stack maw={760} mx="auto" p="md">
        <Title order={1}>{blocked.name}</Title>
        <Alert color="yellow" role="status" data-testid="blocked-notice">
          <FormattedMessage id="profile.block.blockedNotice" />
        </Alert>
        <Group>
          <Button variant="outline" loading={unblock.isPending} onClick={() => unblock.mutate()}>
            <FormattedMessage id="profile.unblock.button" />
          </Button>
          <LocalLink to={paths.user.settings}>
            <FormattedMessage id="profile.block.manageLink" />
          </LocalLink>
        </Group>
      </Stack>
    );
  }
  if (profile.isPending || (hidden && (viewer.isPending || myBlock.isLoading))) {
    return <Loader m="xl" aria-label={t('auth.loading')} />;
  }
  if (profile.isError) {
    return (
      <Alert m="xl" color="red" role="alert">
        {profile.error.message}
      </Alert>
    );
  }
  const p = profile.data;
  if (!p) {
    return (
      <Stack maw={760} mx="auto" p="md">
        <Title order={1}>
          <FormattedMessage id="page.profile.title" />
        </Title>
        <Alert color="gray" data-testid="profile-unavailable">
          <FormattedMessage id="profile.unavailable" />
        </Alert>
      </Stack>
    );
  }
  const links = Object.entries((p.social_links ?? {}) as Record<string, unknown>).filter((entry): entry is [string, string] => isHttpUrl(entry[1]));
  const canBlock = !!viewer.data && viewer.data !== p.id;
  const premium = p.premium_profile;
  const accent = premium?.accent ? `var(--mantine-color-${premium.accent}-7)` : undefined;
  return (
    <Stack
      maw={760}
      mx="auto"
      p="md"
      data-accent={premium?.accent ?? undefined}
      data-testid="public-profile"
      style={accent ? { borderTop: `8px solid ${accent}`, borderRadius: 'var(--mantine-radius-md)' } : undefined}
    >
      <Group align="flex-start" wrap="nowrap">
        <Avatar variant="filled" src={publicAvatarUrl(p.profile_img)} alt="" size={96} radius="xl" />
        <Stack gap={4} style={{ flex: 1 }}>
          <Group gap="sm">
            <Title order={1}>{p.display_name}</Title>
            {premium?.show_badge && (
              <Badge color="dark" variant="filled" data-testid="premium-badge">
                <FormattedMessage id="profile.premium.badge" />
              </Badge>
            )}
          </Group>
          {premium?.tagline && (
            <Text fz="lg" fw={600} data-testid="premium-tagline" style={accent ? { borderLeft: `4px solid ${accent}`, paddingLeft: 8 } : undefined}>
              {premium.tagline}
            </Text>
          )}
          {p.headline && <Text fz="lg">{p.headline}</Text>}
          {p.display_address && <Text c="var(--tw-muted)">{p.display_address}</Text>}
        </Stack>
        {canBlock && (
          <Stack gap="xs" align="flex-end">
            <Suspense fallback={null}>
              <ConnectButton userId={p.id} name={p.display_name ?? ''} />
            </Suspense>
            <Button variant="subtle" color="red" onClick={open}>
              <FormattedMessage id="profile.block.button" />
            </Button>
          </Stack>
        )}
      </Group>
      {premium?.featured_project && (
        <section data-testid="featured-project">
          <Title order={2} fz="h4">
            <FormattedMessage id="profile.premium.featured" />
          </Title>
          <Box mt="xs" style={accent ? { borderLeft: `6px solid ${accent}`, borderRadius: 'var(--mantine-radius-md)' } : undefined}>
            <ContentCard
              to={paths.project(premium.featured_project.id, premium.featured_project.slug)}
              heading="h3"
              title={premium.featured_project.title}
              summary={premium.featured_project.summary}
              owner={{ name: p.display_name, img: p.profile_img }}
              action={<FormattedMessage id="landing.projects.action" />}
            />
          </Box>
        </section>
      )}
      {responseStats.data && <Responsiveness stats={responseStats.data} />}
      {p.bio && <RichText text={p.bio} testId="profile-bio" />}
      {p.skills.length > 0 && (
        <section>
          <Title order={2} fz="h4">
            <FormattedMessage id="profile.skills" />
          </Title>
          <Group gap="xs" mt="xs">
            {p.skills.map((skill) => (
              <Badge key={skill} variant="outline">
                {skill}
              </Badge>
            ))}
          </Group>
        </section>
      )}
      {p.categories.length > 0 && (
        <Group gap="xs">
          {p.categories.map((c) => (
            <Badge key={c} variant="outline">
              {t(CATEGORY_IDS[c])}
            </Badge>
          ))}
        </Group>
      )}
      {p.looking_for && (
        <section>
          <Title order={2} fz="h4">
            <FormattedMessage id="account.field.lookingFor" />
          </Title>
          <Text>{p.looking_for}</Text>
        </section>
      )}
      {p.offering && (
        <section>
          <Title order={2} fz="h4">
            <FormattedMessage id="account.field.offering" />
          </Title>
          <Text>{p.offering}</Text>
        </section>
      )}
      {links.length > 0 && (
        <section>
          <Title order={2} fz="h4">
            <FormattedMessage id="profile.social" />
          </Title>
          <Group gap="md" mt="xs">
            {links.map(([key, url]) => (
              <Anchor key={key} href={url} target="_blank" rel="noopener noreferrer nofollow" onClick={() => trackItem('profile', p.id, 'external_link_click')}>
                {SOCIAL_NETWORKS.find(([k]) => k === key)?.[1] ?? key}
              </Anchor>
            ))}
          </Group>
        </section>
      )}
      {projects.data && projects.data.length > 0 && (
        <section>
          <Title order={2} fz="h4">
            <FormattedMessage id="profile.projects" />
          </Title>
          <SimpleGrid component="ul" cols={{ base: 1, sm: 2 }} mt="xs" p={0} m={0} style={{ listStyle: 'none' }} data-testid="profile-projects">
            {projects.data.map((project) => (
              <li key={project.id}>
                <ContentCard
                  to={paths.project(project.id, project.slug)}
                  heading="h3"
                  title={project.title}
                  kicker={project.category ? t(CATEGORY_LABEL[project.category] ?? 'search.category.other') : undefined}
                  meta={project.city}
                  summary={project.summary}
                  owner={{ name: p.display_name, img: p.profile_img }}
                  action={<FormattedMessage id="landing.projects.action" />}
                />
              </li>
            ))}
          </SimpleGrid>
        </section>
      )}
      <PublicPortfolios ownerId={p.id} />
      <Modal opened={confirmOpen} onClose={close} title={t('profile.block.confirmTitle')}>
        <Stack>
          <Text>
            <FormattedMessage id="profile.block.confirmText" values={{ name: p.display_name }} />
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              <FormattedMessage id="account.cancel" />
            </Button>
            <Button color="red" loading={block.isPending} onClick={() => block.mutate()}>
              <FormattedMessage id="profile.block.confirm" />
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** Response rate and typical response time of the profile (issue 19), in the page locale. */
function Responsiveness({ stats }: { stats: ResponseStats }) {
  const intl = useIntl();
  const hours = stats.medianHours;
  let time: string | null = null;
  if (hours !== null) {
    if (hours < 1) time = intl.formatMessage({ id: 'profile.responsiveness.withinHour' });
    else if (hours < 48) time = intl.formatMessage({ id: 'profile.responsiveness.withinHours' }, { n: Math.round(hours) });
    else time = intl.formatMessage({ id: 'profile.responsiveness.withinDays' }, { n: Math.round(hours / 24) });
  }
  return (
    <section data-testid="response-stats">
      <Title order={2} fz="h4">
        <FormattedMessage id="profile.responsiveness.title" />
      </Title>
      <Text data-testid="response-rate">
        <FormattedMessage
          id="profile.responsiveness.rate"
          values={{ percent: intl.formatNumber(stats.rate, { style: 'percent', maximumFractionDigits: 0 }) }}
        />
        {time && ` · ${time}`}
      </Text>
      <Text size="sm" c="var(--tw-muted)">
        <FormattedMessage id="profile.responsiveness.basis" values={{ count: stats.requests }} />
      </Text>
    </section>
  );
}
