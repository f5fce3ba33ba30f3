/** Public entry of the jobs feature: the job card the public organisation page lists. */
export { JobCard } from './components/job-card';
