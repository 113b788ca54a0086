export * as Accounts from './accounts/accounts';
export * as Billing from './billing';
export * as Images from './images';
export * from './errors';
