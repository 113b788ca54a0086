export * from '../shared/money';
export * from './ledger';
