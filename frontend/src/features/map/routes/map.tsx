import { Alert, Box, Button, Checkbox, Collapse, Container, Grid, Group, NativeSelect, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Suspense, useMemo, useState } from 'react';
import { lazyChunk } from '@/lib/load-chunk';
import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router';
import { LoadError } from '@/components/query-state';
import { CATEGORY_LABEL } from '@/lib/categories';
import type { PageProps } from '@/lib/route-def';
import { CATEGORIES } from '@/lib/categories';
import { type Bounds, GERMANY, MAP_LAYERS, type MapLayer, type MapParams, parseMapParams, toMapSearch, useMapItems } from '../api/map';
import { LAYER_META } from '../components/layer-meta';
import { MapItemList } from '../components/map-item-list';
import { MapLoading } from '../components/map-loading';
import { MarkerPin } from '../components/marker-pin';
import { PageHeader } from '@/components/page-header';

// maplibre is large: it loads with the map itself, never with the page shell (issue 14)
const MapCanvas = lazyChunk(() => import('../components/map-canvas'));

/** Height of the map on the page. */
const MAP_HEIGHT = 'min(70vh, 640px)';

/**
 * `/map`: people, projects, events and jobs across Germany (issue 14). Layers, category, event
 * dates and remote jobs are filters in the URL; "Search this area" limits the results to the
 * visible bounds (`bbox` in the URL); the list beside the map shows the same results.
 */
export default function MapRoute({ locale }: PageProps) {
  const intl = useIntl();
  const [searchParams, setSearchParams] = useSearchParams();
  const key = searchParams.toString();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const params = useMemo(() => parseMapParams(searchParams), [key]);
  const query = useMapItems(params);
  const [moved, setMoved] = useState<Bounds | null>(null);
  const [initialBounds] = useState<Bounds>(() => params.bbox ?? GERMANY);
  // on phones the filters fold away so the map is on the first screen
  const wide = useMediaQuery('(min-width: 62em)');
  const [filtersOpen, setFiltersOpen] = useState(false);
  const activeFilters = [params.category, params.from, params.to, params.remote ? '' : 'remote'].filter(Boolean).length + (params.layers.length < MAP_LAYERS.length ? 1 : 0);

  const apply = (patch: Partial<MapParams>) => setSearchParams(toMapSearch({ ...params, ...patch }));
  const toggleLayer = (layer: MapLayer, on: boolean) =>
    apply({ layers: MAP_LAYERS.filter((l) => (l === layer ? on : params.layers.includes(l))) });

  // layers switch off at once, before the new answer arrives
  const items = useMemo(() => (query.data?.items ?? []).filter((i) => params.layers.includes(i.layer)), [query.data, params.layers]);
  // wide views: layers with many items come as counts per grid cell (issue 34)
  const cells = useMemo(() => (query.data?.cells ?? []).filter((c) => params.layers.includes(c.layer)), [query.data, params.layers]);
  const inCells = cells.reduce((sum, c) => sum + c.count, 0);
  const counts = useMemo(() => {
    const c: Partial<Record<MapLayer, number>> = {};
    for (const i of query.data?.items ?? []) c[i.layer] = (c[i.layer] ?? 0) + 1;
    for (const cell of query.data?.cells ?? []) c[cell.layer] = (c[cell.layer] ?? 0) + cell.count;
    return c;
  }, [query.data]);

  return (
    <Container fluid py="lg" px={{ base: 'sm', md: 'xl' }}>
      <Stack gap="md">
        <PageHeader title={<FormattedMessage id="map.title" />} description={<FormattedMessage id="map.intro" />} />
        {!wide && (
          <Button variant="light" onClick={() => setFiltersOpen((o) => !o)} aria-expanded={filtersOpen} aria-controls="map-filters" style={{ alignSelf: 'flex-start' }} data-testid="map-filters-toggle">
            <FormattedMessage id="map.filters.toggle" values={{ count: activeFilters }} />
          </Button>
        )}
        <Collapse expanded={wide || filtersOpen} id="map-filters">
          <form onSubmit={(e) => e.preventDefault()} aria-label={intl.formatMessage({ id: 'map.filters' })}>
            <Stack gap="sm">
              <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
                <legend>
                  <Text fw={600} fz="sm">
                    <FormattedMessage id="map.layers" />
                  </Text>
                </legend>
                <Group gap="lg">
                  {MAP_LAYERS.map((layer) => (
                    <Checkbox
                      key={layer}
                      checked={params.layers.includes(layer)}
                      onChange={(e) => toggleLayer(layer, e.currentTarget.checked)}
                      data-testid={`map-layer-${layer}`}
                      label={
                        <Group gap={6} wrap="nowrap">
                          <span style={{ display: 'inline-flex', transform: 'scale(0.6)', margin: '-8px -4px' }}>
                            <MarkerPin layer={layer} />
                          </span>
                          <span>
                            <FormattedMessage id={LAYER_META[layer].label} />
                            {params.layers.includes(layer) && query.data && ` (${counts[layer] ?? 0})`}
                          </span>
                        </Group>
                      }
                    />
                  ))}
                </Group>
              </fieldset>
              <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} style={{ alignItems: 'end' }}>
                <NativeSelect
                  label={<FormattedMessage id="map.filter.category" />}
                  value={params.category}
                  onChange={(e) => apply({ category: e.currentTarget.value })}
                  data={[
                    { value: '', label: intl.formatMessage({ id: 'search.any' }) },
                    ...CATEGORIES.map((c) => ({ value: c, label: intl.formatMessage({ id: CATEGORY_LABEL[c]! }) })),
                  ]}
                />
                <TextInput type="date" label={<FormattedMessage id="map.filter.from" />} value={params.from} max={params.to || undefined} onChange={(e) => apply({ from: e.currentTarget.value })} />
                <TextInput type="date" label={<FormattedMessage id="map.filter.to" />} value={params.to} min={params.from || undefined} onChange={(e) => apply({ to: e.currentTarget.value })} />
                <Switch
                  label={<FormattedMessage id="map.filter.remote" />}
                  checked={params.remote}
                  onChange={(e) => apply({ remote: e.currentTarget.checked })}
                  data-testid="map-remote"
                  pb={8}
                />
              </SimpleGrid>
            </Stack>
          </form>
        </Collapse>

        {query.isError && <LoadError messageId="map.error" onRetry={() => void query.refetch()} />}
        {query.data?.capped && (
          <Alert color="blue" variant="light" data-testid="map-capped">
            <FormattedMessage id="map.capped" />
          </Alert>
        )}

        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Box pos="relative">
              <Suspense fallback={<MapLoading height={MAP_HEIGHT} items={items} cells={cells} bounds={initialBounds} />}>
                <MapCanvas
                  items={items}
                  cells={cells}
                  onArea={(area) => {
                    apply({ bbox: area });
                    setMoved(null);
                  }}
                  cities={query.data?.cities ?? []}
                  initialBounds={initialBounds}
                  locale={locale}
                  height={MAP_HEIGHT}
                  label={intl.formatMessage({ id: 'map.region' })}
                  onViewChange={(bounds, _zoom, byUser) => byUser && setMoved(bounds)}
                />
              </Suspense>
              {moved && (
                <Button
                  pos="absolute"
                  top={12}
                  left="50%"
                  style={{ transform: 'translateX(-50%)', zIndex: 3 }}
                  radius="xl"
                  size="sm"
                  onClick={() => {
                    apply({ bbox: moved });
                    setMoved(null);
                  }}
                  data-testid="map-search-area"
                >
                  <FormattedMessage id="map.searchArea" />
                </Button>
              )}
            </Box>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="xs" aria-busy={query.isFetching}>
              <Title order={2} fz="lg">
                <FormattedMessage id="map.list.title" />
              </Title>
              <Text fz="sm" role="status" aria-live="polite" data-testid="map-total">
                {query.isPending ? <FormattedMessage id="map.loading" /> : <FormattedMessage id="map.list.total" values={{ count: items.length + inCells }} />}
              </Text>
              {inCells > 0 && (
                <Text fz="sm" c="dimmed" data-testid="map-in-cells">
                  <FormattedMessage id="map.list.cells" values={{ count: inCells }} />
                </Text>
              )}
              {params.bbox && (
                <Button variant="subtle" size="compact-sm" onClick={() => apply({ bbox: null })} data-testid="map-all-germany" style={{ alignSelf: 'flex-start' }}>
                  <FormattedMessage id="map.allGermany" />
                </Button>
              )}
              {query.data && (items.length > 0 || inCells === 0) && <MapItemList key={key} items={items} locale={locale} label={intl.formatMessage({ id: 'map.list.label' })} />}
            </Stack>
          </Grid.Col>
        </Grid>
      </Stack>
    </Container>
  );
}
