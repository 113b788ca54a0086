export * as Accounts from './accounts/accounts';
export * as Billing from './billing';
export * from './errors';
