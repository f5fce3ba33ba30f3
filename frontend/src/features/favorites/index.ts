/** Public entry of the favourites feature: the favourites lists of the user area. */
export { useFavouriteJobs, useFavouriteProjects, useRemoveFavourite } from './api/get-favorites';
export { FavouriteList } from './components/favourite-list';
