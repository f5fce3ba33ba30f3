import { Center, Loader, Stack, Text } from '@mantine/core';
import { FormattedMessage } from 'react-intl';

/** Placeholder of the map's size while maplibre loads (no layout shift). */
export function MapLoading({ height }: { height: number | string }) {
  return (
    <Center h={height} bg="var(--tw-surface-muted)" style={{ borderRadius: 'var(--mantine-radius-md)' }} data-testid="map-loading">
      <Stack align="center" gap="xs">
        <Loader size="sm" aria-hidden="true" />
        <Text fz="sm">
          <FormattedMessage id="map.loadingMap" />
        </Text>
      </Stack>
    </Center>
  );
}
