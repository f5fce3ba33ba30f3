import type { MapLayer } from '../api/map';
import { MARKER_HEIGHT, MARKER_WIDTH } from '../lib/map-style';
import { LAYER_META } from './layer-meta';

/** Outline of the pin: 25 × 41 (spec §9), tip at the bottom centre (the anchor). */
const PIN = 'M12.5 0C5.6 0 0 5.6 0 12.5c0 9.4 12.5 28.5 12.5 28.5S25 21.9 25 12.5C25 5.6 19.4 0 12.5 0z';

const SYMBOL: Record<(typeof LAYER_META)[MapLayer]['symbol'], string> = {
  circle: 'M12.5 7a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11z',
  square: 'M7.5 7.5h10v10h-10z',
  star: 'M12.5 5.5l2.1 4.4 4.8.6-3.5 3.3.9 4.8-4.3-2.4-4.3 2.4.9-4.8-3.5-3.3 4.8-.6z',
  diamond: 'M12.5 5.5l6.5 7-6.5 7-6.5-7z',
};

/** The SVG pin of a layer: its colour, a white symbol of its own shape (decorative; the button is labelled). */
export function MarkerPin({ layer }: { layer: MapLayer }) {
  const meta = LAYER_META[layer];
  return (
    <svg width={MARKER_WIDTH} height={MARKER_HEIGHT} viewBox={`0 0 ${MARKER_WIDTH} ${MARKER_HEIGHT}`} aria-hidden="true" focusable="false">
      <path d={PIN} fill={meta.color} stroke="#fff" strokeWidth="1.2" />
      <path d={SYMBOL[meta.symbol]} fill="#fff" />
    </svg>
  );
}
