export { cancel } from './cancel';
export { list, status, statusBody } from './status';
