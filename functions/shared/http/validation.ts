import * as v from 'valibot';

/** One entry of the FastAPI-style 422 body: `{loc: ["body","num_output_images"], msg, type}`. */
export interface ValidationDetail {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** A request that failed validation; answered with 422 `{detail: [...]}`. */
export class RequestValidationError extends Error {
  constructor(readonly detail: ValidationDetail[]) {
    super(detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
    this.name = 'RequestValidationError';
  }
}

const issueType = (issue: v.BaseIssue<unknown>): string => {
  if (issue.kind === 'schema' && issue.received === 'undefined') return 'missing';
  return issue.type;
};

/** Turns valibot issues into 422 details located under `location` (body, query or path). */
export const validationDetails = (location: 'body' | 'query' | 'path', issues: readonly v.BaseIssue<unknown>[]): ValidationDetail[] =>
  issues.map((issue) => {
    const path = (issue.path ?? []).map((item) => (typeof item.key === 'number' || typeof item.key === 'string' ? item.key : String(item.key)));
    const type = issueType(issue);
    return { loc: [location, ...path], msg: type === 'missing' ? 'Field required' : issue.message, type };
  });

export const parseOrThrow = <S extends v.GenericSchema>(location: 'body' | 'query' | 'path', schema: S, input: unknown): v.InferOutput<S> => {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (!result.success) throw new RequestValidationError(validationDetails(location, result.issues));
  return result.output;
};
