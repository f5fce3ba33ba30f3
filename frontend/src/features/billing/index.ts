/** Public entry of the billing feature: the current subscription, the plan-limit notice and the subscription panel of the settings. */
export { useCurrentSubscription } from './api/get-subscription';
export { PlanLimitNotice } from './components/plan-limit-notice';
export { SubscriptionPanel } from './components/subscription-panel';
export { useMyPlan, type MyPlan } from './api/get-my-plan';
export { EndOwnPlanDialog, OwnPlanNotice } from './components/end-own-plan';
