import { accessKeyOf, IamGate, isAllowed, type PolicyStatement, principalFor } from '../../../bin/local-aws/iam';
import { dynamoRequests, s3Requests, sqsRequests } from '../../../bin/local-aws/iam-requests';

const TABLE = 'arn:aws:dynamodb:us-east-1:000000000000:table/service';
const read: PolicyStatement = {
  effect: 'Allow',
  actions: ['dynamodb:GetItem', 'dynamodb:Query'],
  resources: [TABLE, `${TABLE}/index/*`],
};

describe('the local IAM gate', () => {
  it('allows what an Allow statement names, by action and resource, wildcards included', () => {
    expect(isAllowed([read], { action: 'dynamodb:GetItem', resource: TABLE })).toBe(true);
    expect(isAllowed([read], { action: 'dynamodb:query', resource: `${TABLE}/index/gsi1` })).toBe(true);
    expect(isAllowed([read], { action: 'dynamodb:PutItem', resource: TABLE })).toBe(false);
    expect(isAllowed([read], { action: 'dynamodb:GetItem', resource: `${TABLE}-other` })).toBe(false);
  });

  it('lets a Deny win over an Allow', () => {
    expect(
      isAllowed([read, { effect: 'Deny', actions: ['dynamodb:*'], resources: ['*'] }], {
        action: 'dynamodb:GetItem',
        resource: TABLE,
      }),
    ).toBe(false);
  });

  it("holds a StringLike condition to the request's context, and fails closed without it", () => {
    const list: PolicyStatement = {
      effect: 'Allow',
      actions: ['s3:ListBucket'],
      resources: ['arn:aws:s3:::b'],
      conditions: { StringLike: { 's3:prefix': ['profiles/*'] } },
    };
    expect(
      isAllowed([list], {
        action: 's3:ListBucket',
        resource: 'arn:aws:s3:::b',
        context: { 's3:prefix': 'profiles/acc/prf/' },
      }),
    ).toBe(true);
    expect(
      isAllowed([list], { action: 's3:ListBucket', resource: 'arn:aws:s3:::b', context: { 's3:prefix': 'outputs/' } }),
    ).toBe(false);
    expect(isAllowed([list], { action: 's3:ListBucket', resource: 'arn:aws:s3:::b' })).toBe(false);
    expect(
      isAllowed([{ ...list, conditions: { IpAddress: { 'aws:SourceIp': ['127.0.0.1'] } } }], {
        action: 's3:ListBucket',
        resource: 'arn:aws:s3:::b',
        context: {},
      }),
    ).toBe(false);
  });

  it('knows the caller by the key a request is signed with, in the header or a presigned URL', () => {
    expect(
      accessKeyOf({
        headers: {
          authorization:
            'AWS4-HMAC-SHA256 Credential=FNApiJobs/20261123/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x',
        },
        url: '/',
      }),
    ).toBe('FNApiJobs');
    expect(
      accessKeyOf({
        headers: {},
        url: '/b/k?X-Amz-Credential=FNApiDownloads%2F20261123%2Fus-east-1%2Fs3%2Faws4_request',
      }),
    ).toBe('FNApiDownloads');
    expect(accessKeyOf({ headers: {}, url: '/' })).toBeUndefined();
  });

  it('refuses a function what its policies do not allow, records it, and leaves other callers alone', () => {
    const gate = new IamGate();
    gate.install(new Map([[principalFor('ApiJobs'), [read]]]));
    const signed = (key: string) => ({
      headers: { authorization: `AWS4-HMAC-SHA256 Credential=${key}/20261123/us-east-1/dynamodb/aws4_request` },
      url: '/',
    });
    expect(() =>
      gate.authorize(signed(principalFor('ApiJobs')), [{ action: 'dynamodb:GetItem', resource: TABLE }]),
    ).not.toThrow();
    expect(() =>
      gate.authorize(signed(principalFor('ApiJobs')), [{ action: 'dynamodb:Scan', resource: TABLE }]),
    ).toThrow(/ApiJobs is not authorized to perform: dynamodb:Scan/);
    expect(() => gate.authorize(signed('local'), [{ action: 'dynamodb:Scan', resource: TABLE }])).not.toThrow();
    expect(gate.denials).toHaveLength(1);
  });
});

describe('what each call is authorised by', () => {
  it('authorises a DynamoDB transaction item by item, and a query on an index by the index', () => {
    expect(
      dynamoRequests('DynamoDB_20120810.TransactWriteItems', {
        TransactItems: [
          { Update: { TableName: 'service' } },
          { ConditionCheck: { TableName: 'service' } },
          { Put: { TableName: 'service' } },
        ],
      }),
    ).toEqual([
      { action: 'dynamodb:UpdateItem', resource: TABLE },
      { action: 'dynamodb:ConditionCheckItem', resource: TABLE },
      { action: 'dynamodb:PutItem', resource: TABLE },
    ]);
    expect(dynamoRequests('DynamoDB_20120810.Query', { TableName: 'service', IndexName: 'gsi1' })).toEqual([
      { action: 'dynamodb:Query', resource: `${TABLE}/index/gsi1` },
    ]);
  });

  it('authorises S3 object calls on the object, listing on the bucket with its prefix, and a multi-delete per key', () => {
    expect(s3Requests('GET', new URL('http://s3/b/outputs/a%20b/1.jpg'), undefined)).toEqual([
      { action: 's3:GetObject', resource: 'arn:aws:s3:::b/outputs/a b/1.jpg' },
    ]);
    expect(s3Requests('GET', new URL('http://s3/b?list-type=2&prefix=profiles/x/'), undefined)).toEqual([
      { action: 's3:ListBucket', resource: 'arn:aws:s3:::b', context: { 's3:prefix': 'profiles/x/' } },
    ]);
    const body = Buffer.from(
      '<Delete><Object><Key>profiles/x/1.jpg</Key></Object><Object><Key>profiles/x/2.jpg</Key></Object></Delete>',
    );
    expect(s3Requests('POST', new URL('http://s3/b?delete'), body).map((request) => request.resource)).toEqual([
      'arn:aws:s3:::b/profiles/x/1.jpg',
      'arn:aws:s3:::b/profiles/x/2.jpg',
    ]);
  });

  it('authorises an SQS call on the queue its URL names, a batch as the single call', () => {
    const arnOf = (url: string) =>
      url.endsWith('/callbacks') ? 'arn:aws:sqs:us-east-1:000000000000:callbacks' : undefined;
    expect(
      sqsRequests(
        'AmazonSQS.SendMessageBatch',
        Buffer.from(JSON.stringify({ QueueUrl: 'http://q/000000000000/callbacks' })),
        arnOf,
      ),
    ).toEqual([{ action: 'sqs:SendMessage', resource: 'arn:aws:sqs:us-east-1:000000000000:callbacks' }]);
    expect(
      sqsRequests(
        undefined,
        Buffer.from('Action=ChangeMessageVisibility&QueueUrl=http%3A%2F%2Fq%2F000000000000%2Fcallbacks'),
        arnOf,
      ),
    ).toEqual([{ action: 'sqs:ChangeMessageVisibility', resource: 'arn:aws:sqs:us-east-1:000000000000:callbacks' }]);
  });
});

describe('conditions on the partition key', () => {
  it('lets a counter write through only on the partitions the condition names', () => {
    const counter: PolicyStatement = {
      effect: 'Allow',
      actions: ['dynamodb:UpdateItem'],
      resources: [TABLE],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
    };
    const [onCounter] = dynamoRequests('DynamoDB_20120810.UpdateItem', {
      TableName: 'service',
      Key: { pk: { S: 'RATE#acc_1' }, sk: { S: 'WINDOW#0' } },
    });
    const [onAccount] = dynamoRequests('DynamoDB_20120810.UpdateItem', {
      TableName: 'service',
      Key: { pk: { S: 'ACCOUNT#acc_1' }, sk: { S: 'ACCOUNT' } },
    });
    expect(isAllowed([counter], onCounter!)).toBe(true);
    expect(isAllowed([counter], onAccount!)).toBe(false);
  });
});
