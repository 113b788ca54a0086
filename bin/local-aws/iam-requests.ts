/**
 * What AWS authorises each call by: the IAM action and resource ARN of the calls the service's code
 * makes, per service, for the local stand-ins to put to the IAM gate (bin/local-aws/iam.ts). A call this
 * does not know is authorised under its own name (`<service>:<Operation>`) on the resource it names.
 */

import { localArn } from './arns';
import type { AccessRequest } from './iam';

type Json = Record<string, unknown>;

const ITEM_ACTIONS: Record<string, string> = {
  Put: 'dynamodb:PutItem',
  Update: 'dynamodb:UpdateItem',
  Delete: 'dynamodb:DeleteItem',
  ConditionCheck: 'dynamodb:ConditionCheckItem',
  Get: 'dynamodb:GetItem',
};

/** The partition key an item call names (`dynamodb:LeadingKeys`), from its Key or Item. */
const leadingKey = (spec: Json): Record<string, string> | undefined => {
  const item = (spec.Key ?? spec.Item) as Record<string, { S?: string }> | undefined;
  const pk = item?.pk?.S;
  return pk === undefined ? undefined : { 'dynamodb:LeadingKeys': pk };
};

/** DynamoDB: one request per table a call touches; a transaction per item, as AWS authorises it. */
export const dynamoRequests = (target: string, body: Json): AccessRequest[] => {
  const operation = target.split('.').pop() ?? '';
  const tableArn = (table: unknown, index?: unknown) =>
    `${localArn.table(String(table))}${index ? `/index/${String(index)}` : ''}`;
  if (operation === 'TransactWriteItems' || operation === 'TransactGetItems') {
    return ((body.TransactItems ?? []) as Json[]).flatMap((item) =>
      Object.entries(item).map(([kind, spec]) => ({
        action: ITEM_ACTIONS[kind] ?? `dynamodb:${kind}`,
        resource: tableArn((spec as Json).TableName),
        context: leadingKey(spec as Json),
      })),
    );
  }
  if (operation === 'BatchGetItem' || operation === 'BatchWriteItem') {
    return Object.keys((body.RequestItems ?? {}) as Json).map((table) => ({
      action: `dynamodb:${operation}`,
      resource: tableArn(table),
    }));
  }
  return [
    { action: `dynamodb:${operation}`, resource: tableArn(body.TableName, body.IndexName), context: leadingKey(body) },
  ];
};

/** S3 (path-style, as the service's client addresses it): object calls on the object, listing on the bucket. */
export const s3Requests = (method: string, url: URL, body: Buffer | undefined): AccessRequest[] => {
  const [bucket, ...rest] = url.pathname.replace(/^\//, '').split('/');
  const key = rest.map(decodeURIComponent).join('/');
  const bucketArn = `arn:aws:s3:::${bucket}`;
  if (!key) {
    if (method === 'POST' && url.searchParams.has('delete')) {
      const keys = [...(body?.toString('utf8') ?? '').matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) =>
        match[1].replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
      );
      return keys.map((objectKey) => ({ action: 's3:DeleteObject', resource: `${bucketArn}/${objectKey}` }));
    }
    if (method === 'GET' || method === 'HEAD')
      return [
        {
          action: 's3:ListBucket',
          resource: bucketArn,
          context: { 's3:prefix': url.searchParams.get('prefix') ?? '' },
        },
      ];
    return [{ action: `s3:${method}Bucket`, resource: bucketArn }];
  }
  const action =
    method === 'GET' || method === 'HEAD'
      ? 's3:GetObject'
      : method === 'PUT'
        ? 's3:PutObject'
        : method === 'DELETE'
          ? 's3:DeleteObject'
          : `s3:${method}Object`;
  return [{ action, resource: `${bucketArn}/${key}` }];
};

/** SQS (JSON protocol, or the query protocol's Action): the queue the URL names. */
export const sqsRequests = (
  target: string | undefined,
  body: Buffer,
  queueArnOf: (url: string) => string | undefined,
): AccessRequest[] => {
  let operation: string | undefined;
  let queueUrl: string | undefined;
  if (target) {
    operation = target.split('.').pop();
    queueUrl = (JSON.parse(body.toString('utf8') || '{}') as Json).QueueUrl as string | undefined;
  } else {
    const form = new URLSearchParams(body.toString('utf8'));
    operation = form.get('Action') ?? undefined;
    queueUrl = form.get('QueueUrl') ?? undefined;
  }
  if (!operation) return [];
  // A batch is authorised as the single call it batches.
  const action = `sqs:${operation.replace(/Batch$/, '')}`;
  return [{ action, resource: (queueUrl && queueArnOf(queueUrl)) ?? '*' }];
};

/** Secrets Manager: the secret by its ARN. */
export const secretsRequests = (target: string, body: Json): AccessRequest[] => [
  { action: `secretsmanager:${target.split('.').pop()}`, resource: String(body.SecretId ?? '*') },
];
