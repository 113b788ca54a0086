/** Request validation answered in FastAPI's words: the 422 details, the JSON body, and their bounds. */
export { answerableDetails, parseOrThrow } from './bounds';
export { jsonInvalid, MAX_JSON_DEPTH, parseJsonBody } from './json-body';
export {
  INTEGER_TEXT,
  missingBody,
  RequestValidationError,
  type ValidationDetail,
  validationDetails,
  valueErrorDetail,
} from './pydantic-errors';
