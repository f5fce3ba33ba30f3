import { Box, Card, Container, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { FormattedMessage } from 'react-intl';
import { LocalButtonLink } from '@/components/local-link';
import { paths } from '@/config/paths';
import { PRODUCT_NAME } from '@/lib/constants';

const CARDS = [
  { title: 'landing.card.students.title', text: 'landing.card.students.text', audience: 'landing.card.students.audience' },
  { title: 'landing.card.professionals.title', text: 'landing.card.professionals.text', audience: 'landing.card.professionals.audience' },
  { title: 'landing.card.founders.title', text: 'landing.card.founders.text', audience: 'landing.card.founders.audience' },
  { title: 'landing.card.teams.title', text: 'landing.card.teams.text', audience: 'landing.card.teams.audience' },
] as const;

/** `/` (landing layout): banner and feature cards for the four target groups (spec §1, §2). */
export default function LandingRoute() {
  return (
    <>
      <Box component="section" aria-labelledby="banner-title" py={{ base: 48, md: 96 }} bg="blue.9" c="white">
        <Container size="lg">
          <Stack gap="lg" maw={720}>
            <Title id="banner-title" order={1} fz={{ base: 32, md: 48 }} lh={1.15}>
              <FormattedMessage id="landing.banner.title" values={{ product: PRODUCT_NAME }} />
            </Title>
            <Text fz="lg">
              <FormattedMessage id="landing.banner.text" values={{ product: PRODUCT_NAME }} />
            </Text>
            <Group>
              <LocalButtonLink to={paths.registration} size="md" variant="white" color="blue.9">
                <FormattedMessage id="landing.banner.cta" />
              </LocalButtonLink>
              <LocalButtonLink to={paths.prices} size="md" variant="outline" color="white" c="white">
                <FormattedMessage id="landing.banner.secondary" />
              </LocalButtonLink>
            </Group>
          </Stack>
        </Container>
      </Box>
      <Container size="lg" py="xl" component="section" aria-labelledby="cards-title">
        <Title id="cards-title" order={2} mb="lg">
          <FormattedMessage id="landing.cards.title" />
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
          {CARDS.map((card) => (
            <Card key={card.title} withBorder padding="lg" component="article">
              <Text fz="sm" fw={700} c="blue.9" tt="uppercase">
                <FormattedMessage id={card.audience} />
              </Text>
              <Title order={3} fz="lg" mt="xs" mb="sm">
                <FormattedMessage id={card.title} />
              </Title>
              <Text fz="sm">
                <FormattedMessage id={card.text} />
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      </Container>
      <Container size="lg" pb="xl" component="section" aria-labelledby="network-title">
        <Card withBorder padding="xl" bg="gray.0">
          <Title id="network-title" order={2} fz="xl">
            <FormattedMessage id="landing.network.title" />
          </Title>
          <Text mt="sm">
            <FormattedMessage id="landing.network.text" values={{ product: PRODUCT_NAME }} />
          </Text>
          <Group mt="md">
            <LocalButtonLink to={paths.remoteJobs} variant="light">
              <FormattedMessage id="landing.network.jobs" />
            </LocalButtonLink>
            <LocalButtonLink to={paths.about} variant="subtle">
              <FormattedMessage id="landing.network.about" />
            </LocalButtonLink>
          </Group>
        </Card>
      </Container>
    </>
  );
}
