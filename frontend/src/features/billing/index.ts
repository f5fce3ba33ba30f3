/** Public entry of the billing feature: the current subscription, the plan-limit notice, the subscription panel of the settings and the plan preview of free members. */
export { useCurrentSubscription } from './api/get-subscription';
export { PlanLimitNotice } from './components/plan-limit-notice';
export { SubscriptionPanel } from './components/subscription-panel';
export { useMyPlan, type MyPlan } from './api/get-my-plan';
export { EndOwnPlanDialog, OwnPlanNotice } from './components/end-own-plan';
export { PlanPreview } from './components/plan-preview';
