export * as Accounts from './accounts/accounts';
export * as Billing from './billing';
export * as Images from './images';
export * as Jobs from './jobs';
export * as Profiles from './profiles';
export * from './errors';
