export * from './ledger';
export * from '../shared/money';
