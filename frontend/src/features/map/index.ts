/** Public entry of the map feature: the results map and list/map switch that search and events embed. */
export { type MapItem, type MapLayer, useCityPositions } from './api/map';
export { ResultsMap } from './components/results-map';
export { ViewSwitch } from './components/view-switch';
