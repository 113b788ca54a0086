export * from './ledger';
export * from './money';
