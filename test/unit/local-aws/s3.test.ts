/**
 * The local runtime's S3 answers the calls the service makes as S3 answers them, keeps objects across a
 * restart, and carries over what an s3rver data directory held.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { type LocalS3, startLocalS3 } from '../../../bin/local-aws/s3';
import { createObjectStore } from '../../../functions/adapters/s3/object-store';

const BUCKET = 'service-local';
let dataDir: string;
let s3: LocalS3;
let client: S3Client;

const clientFor = (endpoint: string) =>
  new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'local-s3-'));
  s3 = await startLocalS3({ dataDir, bucket: BUCKET });
  client = clientFor(s3.endpoint);
});
afterEach(async () => {
  client.destroy();
  await s3.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('stores and answers an object with its type and ETag, and NoSuchKey for what is not there', async () => {
  const put = await client.send(
    new PutObjectCommand({ Bucket: BUCKET, Key: 'a/b c.jpg', Body: Buffer.from('bytes'), ContentType: 'image/jpeg' }),
  );
  const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'a/b c.jpg' }));
  expect({
    body: Buffer.from(await got.Body!.transformToByteArray()).toString(),
    type: got.ContentType,
    etag: got.ETag,
  }).toEqual({ body: 'bytes', type: 'image/jpeg', etag: put.ETag });
  await expect(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'a/missing' }))).rejects.toMatchObject({
    name: 'NoSuchKey',
  });
  await expect(client.send(new GetObjectCommand({ Bucket: 'other', Key: 'a' }))).rejects.toMatchObject({
    name: 'NoSuchBucket',
  });
});

it('lists by prefix in key order, page by page, and deletes many at once', async () => {
  for (const key of ['p/3', 'p/1', 'q/1', 'p/2'])
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: Buffer.from(key) }));
  const first = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'p/', MaxKeys: 2 }));
  expect({ keys: first.Contents?.map((object) => object.Key), truncated: first.IsTruncated }).toEqual({
    keys: ['p/1', 'p/2'],
    truncated: true,
  });
  const second = await client.send(
    new ListObjectsV2Command({
      Bucket: BUCKET,
      Prefix: 'p/',
      MaxKeys: 2,
      ContinuationToken: first.NextContinuationToken,
    }),
  );
  expect({ keys: second.Contents?.map((object) => object.Key), truncated: second.IsTruncated }).toEqual({
    keys: ['p/3'],
    truncated: false,
  });
  expect(
    await createObjectStore({ bucket: BUCKET, region: 'us-east-1', endpoint: s3.endpoint }).deletePrefix('p/'),
  ).toBe(3);
  const left = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  expect(left.Contents?.map((object) => object.Key)).toEqual(['q/1']);
  await client.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: [{ Key: 'q/1' }] } }));
  expect((await client.send(new ListObjectsV2Command({ Bucket: BUCKET }))).KeyCount).toBe(0);
});

it('serves a presigned link until it expires', async () => {
  await client.send(
    new PutObjectCommand({ Bucket: BUCKET, Key: 'out.png', Body: Buffer.from('png'), ContentType: 'image/png' }),
  );
  const live = await getSignedUrl(client, new GetObjectCommand({ Bucket: BUCKET, Key: 'out.png' }), { expiresIn: 60 });
  const answer = await fetch(live);
  expect({ status: answer.status, type: answer.headers.get('content-type'), body: await answer.text() }).toEqual({
    status: 200,
    type: 'image/png',
    body: 'png',
  });
  const expired = await getSignedUrl(client, new GetObjectCommand({ Bucket: BUCKET, Key: 'out.png' }), {
    expiresIn: 1,
    signingDate: new Date(Date.now() - 10_000),
  });
  const refused = await fetch(expired);
  expect({ status: refused.status, body: await refused.text() }).toEqual({
    status: 403,
    body: expect.stringContaining('<Code>AccessDenied</Code>'),
  });
});

it('keeps objects across a restart', async () => {
  await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'kept', Body: Buffer.from('still here') }));
  client.destroy();
  await s3.close();
  s3 = await startLocalS3({ dataDir, bucket: BUCKET });
  client = clientFor(s3.endpoint);
  const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'kept' }));
  expect(await got.Body!.transformToString()).toBe('still here');
});

it('cuts off a record torn by a crash, and leaves out what was deleted or replaced when it compacts', async () => {
  for (let index = 0; index < 4; index += 1)
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `k${index}`, Body: Buffer.alloc(1000, index) }));
  await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'k0', Body: Buffer.from('replaced') }));
  await client.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: [{ Key: 'k1' }, { Key: 'k2' }] } }));
  client.destroy();
  await s3.close();
  const pack = path.join(dataDir, 'objects', BUCKET, 'objects.pack');
  const before = fs.statSync(pack).size;
  fs.appendFileSync(pack, Buffer.from([0, 0, 0, 40, 0, 0, 0, 9, 123]));

  s3 = await startLocalS3({ dataDir, bucket: BUCKET });
  client = clientFor(s3.endpoint);
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
  expect(listed.Contents?.map((object) => [object.Key, object.Size])).toEqual([
    ['k0', 8],
    ['k3', 1000],
  ]);
  expect(await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'k0' }))).Body!.transformToString()).toBe(
    'replaced',
  );
  expect(
    Buffer.from(
      await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'k3' }))).Body!.transformToByteArray(),
    ),
  ).toEqual(Buffer.alloc(1000, 3));
  expect(fs.statSync(pack).size).toBeLessThan(before / 2);
});

it('carries over the objects of an s3rver data directory once', async () => {
  client.destroy();
  await s3.close();
  const old = path.join(dataDir, BUCKET, 'accounts', 'acc_1');
  fs.mkdirSync(old, { recursive: true });
  fs.writeFileSync(path.join(old, 'photo.jpg._S3rver_object'), 'old bytes');
  fs.writeFileSync(path.join(old, 'photo.jpg._S3rver_metadata.json'), JSON.stringify({ 'content-type': 'image/jpeg' }));
  s3 = await startLocalS3({ dataDir, bucket: BUCKET });
  client = clientFor(s3.endpoint);
  const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'accounts/acc_1/photo.jpg' }));
  expect({ body: await got.Body!.transformToString(), type: got.ContentType }).toEqual({
    body: 'old bytes',
    type: 'image/jpeg',
  });
  expect(fs.existsSync(path.join(dataDir, `${BUCKET}.s3rver`))).toBe(true);
});
