export * as Accounts from './accounts/accounts';
export * as Statement from './accounts/statement';
export * as Billing from './billing';
export * from './errors';
export * as Images from './images';
export * as Jobs from './jobs';
export * as Callbacks from './jobs/deliveries';
export * as Profiles from './profiles';
export * as Workflow from './workflow/steps';
