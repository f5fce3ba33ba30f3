/** Public entry of the portfolios feature: the public portfolios list of a profile. */
export { PublicPortfolios } from './components/public-portfolios';
