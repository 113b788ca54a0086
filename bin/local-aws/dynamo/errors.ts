/** An error DynamoDB answers: its `__type` name (without the namespace), its message and any extra fields. */
export class DynamoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
