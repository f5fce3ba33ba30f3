import { Autocomplete, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useCitySuggestions, useGazetteerCity } from '@/lib/cities';

/**
 * A city input with suggestions from the gazetteer (public.cities) instead of latitude/longitude
 * inputs: people name their city, the database derives the position from it (trigger
 * private.content_map_position; issue 33 §6). Under the field it says where the map will show the
 * item, or that a name outside the gazetteer gives no map position.
 * @param value the typed city; onChange receives every change (typed or chosen)
 */
export function CityField({
  label,
  description,
  value,
  onChange,
  error,
}: {
  label: ReactNode;
  description?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  error?: ReactNode;
}) {
  const intl = useIntl();
  const [debounced] = useDebouncedValue(value, 200);
  const suggestions = useCitySuggestions(debounced);
  const match = useGazetteerCity(debounced);
  const options = (suggestions.data ?? []).map((c) => ({ value: c.name, label: c.name }));
  const states = new Map((suggestions.data ?? []).map((c) => [c.name, c.state]));
  const typed = value.trim();
  const settled = typed !== '' && debounced === value && !match.isPending;

  return (
    <div>
      <Autocomplete
        label={label}
        description={description}
        value={value}
        onChange={onChange}
        data={options}
        filter={({ options: o }) => o}
        limit={8}
        maxLength={100}
        autoComplete="off"
        error={error}
        renderOption={({ option }) => (
          <span>
            {option.value}{' '}
            <Text span size="xs" c="var(--tw-muted)">
              {states.get(option.value)}
            </Text>
          </span>
        )}
      />
      {settled && match.data && (
        <Text size="sm" c="var(--tw-muted)" mt={4} data-testid="city-position" role="status">
          <FormattedMessage
            id="common.city.position"
            values={{
              city: match.data.name,
              state: match.data.state,
              lat: intl.formatNumber(match.data.latitude, { maximumFractionDigits: 2 }),
              lon: intl.formatNumber(match.data.longitude, { maximumFractionDigits: 2 }),
            }}
          />
        </Text>
      )}
      {settled && match.isSuccess && !match.data && (
        <Text size="sm" c="var(--tw-muted)" mt={4} data-testid="city-position" role="status">
          <FormattedMessage id="common.city.unknown" values={{ city: typed }} />
        </Text>
      )}
    </div>
  );
}
