import { Button, Fieldset, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { NumberField } from '@/components/number-field';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { notify } from '@/lib/notify';
import { fetchOwnMapPlacement, type ProfileUpdates, updateOwnProfile } from '../api/own-profile';

interface Values {
  show: boolean;
  latitude: number | string;
  longitude: number | string;
}

/** What the form saves: the opt-in with coordinates, or the opt-out (the database then stores the city's). */
function toUpdates(v: Values): ProfileUpdates {
  return v.show && typeof v.latitude === 'number' && typeof v.longitude === 'number'
    ? { show_exact_location: true, latitude: v.latitude, longitude: v.longitude }
    : { show_exact_location: false };
}

function PlacementForm({ initial }: { initial: Values }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const form = useForm<Values>({
    initialValues: initial,
    validate: {
      latitude: (v, all) => (all.show && (typeof v !== 'number' || v < -90 || v > 90) ? intl.formatMessage({ id: 'map.business.latitudeInvalid' }) : null),
      longitude: (v, all) => (all.show && (typeof v !== 'number' || v < -180 || v > 180) ? intl.formatMessage({ id: 'map.business.longitudeInvalid' }) : null),
    },
  });
  const save = useMutation({
    mutationFn: (v: Values) => updateOwnProfile(toUpdates(v)),
    onSuccess: async () => {
      notify('success', intl.formatMessage({ id: 'account.settings.saved' }));
      await queryClient.invalidateQueries({ queryKey: ['own-map-placement'] });
    },
    onError: (err) => notify('error', err.message),
  });
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
      <Fieldset legend={intl.formatMessage({ id: 'map.business.legend' })}>
        <Stack>
          <Text fz="sm">
            <FormattedMessage id="map.business.intro" />
          </Text>
          <Switch label={intl.formatMessage({ id: 'map.business.show' })} data-testid="business-exact-location" {...form.getInputProps('show', { type: 'checkbox' })} />
          {form.values.show && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NumberField label={intl.formatMessage({ id: 'map.business.latitude' })} decimalScale={6} min={-90} max={90} {...form.getInputProps('latitude')} />
              <NumberField label={intl.formatMessage({ id: 'map.business.longitude' })} decimalScale={6} min={-180} max={180} {...form.getInputProps('longitude')} />
            </SimpleGrid>
          )}
          <Button type="submit" loading={save.isPending} style={{ alignSelf: 'flex-start' }}>
            <FormattedMessage id="map.business.save" />
          </Button>
        </Stack>
      </Fieldset>
    </form>
  );
}

/**
 * Business profiles only (issue 14, spec §3): whether the map shows the business address's exact
 * coordinates instead of the city's. Off, the database stores the city's coordinates whatever is
 * written; on, it keeps the coordinates given here (WGS84 degrees).
 */
export function BusinessMapLocation() {
  const placement = useQuery({ queryKey: ['own-map-placement'], queryFn: fetchOwnMapPlacement });
  if (!placement.data) return null;
  const p = placement.data;
  return (
    <PlacementForm
      key={`${p.show_exact_location}-${p.latitude}-${p.longitude}`}
      initial={{ show: p.show_exact_location, latitude: p.show_exact_location ? (p.latitude ?? '') : '', longitude: p.show_exact_location ? (p.longitude ?? '') : '' }}
    />
  );
}
